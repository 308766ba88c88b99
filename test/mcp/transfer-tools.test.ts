import { expect, it } from 'vitest';
import { ROLES } from '../../src/auth/roles.js';
import { ManualClock } from '../../src/core/clock.js';
import { call } from '../helpers/cms.js';
import { createEntry, postsCollection } from '../helpers/content.js';
import { describeEachDialect } from '../helpers/db.js';
import { mcpClient, serve } from '../helpers/mcp.js';
import { mediaCms } from '../helpers/media.js';
import { sessionFor } from '../helpers/session.js';
import { fetchBytes, runExport, uploadPackage } from '../helpers/transfer.js';

describeEachDialect('MCP site transfer tools', (dialect) => {
  it('exports with the scope, step by step, and answers summaries without addresses or URLs', async () => {
    const cms = await mediaCms(dialect);
    const scoped = await cms.userToken(ROLES.ADMIN, ['transfer:export']);
    const mcp = await mcpClient(await serve(cms), scoped.token);
    const caps = await mcp.ok('site_transfer_capabilities');
    expect(caps.package.format).toBe('cms-site-package');
    let op = await mcp.ok('site_export_start', { comments: false });
    expect(op.state).toBe('running');
    expect((await mcp.ok('site_export_status', { id: op.id, advance: false })).progress.done).toBe(0);
    for (let i = 0; op.nextRequestInMs !== null && i < 50; i++) op = await mcp.ok('site_export_status', { id: op.id });
    expect(op.state).toBe('complete');
    expect(op.totals.records.users).toBe(2);
    const text = JSON.stringify(op);
    expect(text).not.toMatch(/@example\.test|https?:\/\//);
    await mcp.close();
  });

  it('refuses non-admins before any approval is asked for', async () => {
    const cms = await mediaCms(dialect);
    const editor = await cms.userToken(ROLES.EDITOR);
    const mcp = await mcpClient(await serve(cms), editor.token);
    for (const tool of ['site_transfer_capabilities', 'site_export_start']) {
      const res = await mcp.call(tool, {});
      expect(res.isError).toBe(true);
      expect(res._meta?.code).toBe('INSUFFICIENT_PERMISSIONS');
    }
    const list = await cms.ctx.db.selectFrom('_cms_transfer_approvals').selectAll().execute();
    expect(list).toHaveLength(0);
    await mcp.close();
  });

  it('asks for an approval without the scope, starts once approved in a session, and binds it to the call', async () => {
    const clock = new ManualClock(new Date('2026-06-01T10:00:00.000Z'));
    const cms = await mediaCms(dialect, 'file', { clock });
    const agent = await cms.userToken(ROLES.ADMIN, ['content:read']);
    const url = await serve(cms);
    const mcp = await mcpClient(url, agent.token);

    const first = await mcp.call('site_export_start', { comments: true });
    expect(first.isError).toBe(true);
    expect(first._meta?.code).toBe('TRANSFER_APPROVAL_REQUIRED');
    const { approvalId, expiresAt } = first._meta?.details ?? {};
    expect(expiresAt).toBe('2026-06-01T10:15:00.000Z');
    // The same call again: the same open request.
    expect((await mcp.call('site_export_start', { comments: true }))._meta?.details.approvalId).toBe(approvalId);
    // Not approved yet.
    const early = await mcp.call('site_export_start', { comments: true, approvalId });
    expect(early._meta?.code).toBe('TRANSFER_APPROVAL_INVALID');

    // Tokens cannot decide; a signed-in administrator can.
    const byToken = await call(cms, 'POST', `/admin/transfer/approvals/${approvalId}/approve`, {
      token: cms.adminToken,
    });
    expect(byToken.status).toBe(403);
    const session = await sessionFor(cms, cms.adminId);
    const listed = await session.call('GET', '/admin/transfer/approvals');
    expect(listed.body.data.items[0]).toMatchObject({
      id: approvalId,
      state: 'pending',
      action: 'export',
      arguments: { comments: true },
    });
    clock.set(new Date('2026-06-01T10:10:00.000Z'));
    const approved = await session.call('POST', `/admin/transfer/approvals/${approvalId}/approve`);
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body.data).toMatchObject({ state: 'approved', expiresAt: '2026-06-01T10:25:00.000Z' });

    // Other arguments, or another token of the same user, cannot use it.
    expect((await mcp.call('site_export_start', { comments: false, approvalId }))._meta?.code).toBe(
      'TRANSFER_APPROVAL_INVALID',
    );
    const { token: other } = await cms.services.tokens.create(null, {
      userId: agent.userId,
      name: 'other',
      scopes: ['content:read'],
    });
    const otherMcp = await mcpClient(url, other);
    expect((await otherMcp.call('site_export_start', { comments: true, approvalId }))._meta?.code).toBe(
      'TRANSFER_APPROVAL_INVALID',
    );

    let op = await mcp.ok('site_export_start', { comments: true, approvalId });
    expect(op.state).toBe('running');
    // Used once.
    expect((await mcp.call('site_export_start', { comments: true, approvalId }))._meta?.code).toBe(
      'TRANSFER_APPROVAL_INVALID',
    );
    // The same token may follow the operation it started, without the scope; the other token may not.
    for (let i = 0; op.nextRequestInMs !== null && i < 50; i++) op = await mcp.ok('site_export_status', { id: op.id });
    expect(op.state).toBe('complete');
    expect((await otherMcp.call('site_export_status', { id: op.id }))._meta?.code).toBe('INSUFFICIENT_SCOPE');
    // REST downloads still need the scope.
    expect((await call(cms, 'GET', `/admin/transfer/exports/${op.id}/manifest`, { token: agent.token })).status).toBe(
      403,
    );
    await mcp.close();
    await otherMcp.close();
  });

  it('expires requests after 15 minutes and refuses denied ones', async () => {
    const clock = new ManualClock(new Date('2026-06-01T10:00:00.000Z'));
    const cms = await mediaCms(dialect, 'file', { clock });
    const agent = await cms.userToken(ROLES.ADMIN, ['content:read']);
    const mcp = await mcpClient(await serve(cms), agent.token);
    const id1 = (await mcp.call('site_export_start', {}))._meta?.details.approvalId;
    const session = await sessionFor(cms, cms.adminId);
    clock.set(new Date('2026-06-01T10:15:00.001Z'));
    expect((await session.call('POST', `/admin/transfer/approvals/${id1}/approve`)).body.error.code).toBe(
      'INVALID_STATE',
    );
    const id2 = (await mcp.call('site_export_start', {}))._meta?.details.approvalId;
    expect(id2).not.toBe(id1);
    expect((await session.call('POST', `/admin/transfer/approvals/${id2}/deny`)).body.data.state).toBe('denied');
    const denied = await mcp.call('site_export_start', { approvalId: id2 });
    expect(denied._meta?.code).toBe('TRANSFER_APPROVAL_INVALID');
    expect(denied._meta?.details.state).toBe('denied');
    const states = (await session.call('GET', '/admin/transfer/approvals')).body.data.items.map((a: any) => a.state);
    expect(states).toEqual(['denied', 'expired']);
    await mcp.close();
  });

  it('analyzes, starts under an approval, resumes and reads the receipt of an import', async () => {
    const source = await mediaCms(dialect);
    await postsCollection(source);
    await createEntry(source, { data: { title: 'Moved by an agent' } });
    const op = await runExport(source, source.adminToken);
    const archive = (await fetchBytes(source, `/admin/transfer/exports/${op.id}/archive`, source.adminToken)).bytes;

    const target = await mediaCms(dialect);
    // The agent may upload and analyze, not execute.
    const agent = await target.userToken(ROLES.ADMIN, ['transfer:analyze']);
    const id = await uploadPackage(target, agent.token, archive);
    const mcp = await mcpClient(await serve(target), agent.token);
    let analyzed = await mcp.ok('site_import_analyze', { id });
    for (let i = 0; analyzed.nextRequestInMs !== null && i < 50; i++)
      analyzed = await mcp.ok('site_import_analyze', { id });
    const { plan } = analyzed;
    expect(plan).toMatchObject({ executable: true, principals: { total: 1 } });
    expect(JSON.stringify(analyzed)).not.toMatch(/@example\.test/);
    const digests = { packageDigest: plan.packageDigest, planDigest: plan.planDigest };

    // Stale digests are refused before any approval is asked for.
    const stale = await mcp.call('site_import_start', {
      id,
      packageDigest: plan.packageDigest,
      planDigest: 'sha256:0',
    });
    expect(stale._meta?.code).toBe('VALIDATION_ERROR');
    const asked = await mcp.call('site_import_start', { id, ...digests });
    expect(asked._meta?.code).toBe('TRANSFER_APPROVAL_REQUIRED');
    const { approvalId } = asked._meta?.details ?? {};
    const session = await sessionFor(target, target.adminId);
    const listed = await session.call('GET', '/admin/transfer/approvals');
    expect(listed.body.data.items[0]).toMatchObject({ action: 'import', arguments: { id, ...digests } });
    expect((await session.call('POST', `/admin/transfer/approvals/${approvalId}/approve`)).status).toBe(200);

    let started = await mcp.ok('site_import_start', { id, ...digests, approvalId });
    expect(started).toMatchObject({ state: 'executing', holdsSite: true });
    for (let i = 0; started.nextRequestInMs !== null && i < 50; i++)
      started = await mcp.ok('site_import_resume', { id });
    expect(started.state).toBe('complete');
    const receipt = await mcp.ok('site_import_receipt', { id });
    expect(receipt.records.entries).toBe(1);
    expect((await mcp.ok('site_import_status', { id })).holdsSite).toBe(false);
    await mcp.close();
  });
});
