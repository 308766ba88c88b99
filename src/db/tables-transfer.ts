/** Site transfer tables (migration 017). JSON columns are text on both dialects. */

export type TransferKind = 'export' | 'import';

export interface TransferOperationsTable {
  id: string;
  kind: TransferKind;
  state: string;
  stage: string | null;
  options: string;
  manifest: string | null;
  package_digest: string | null;
  plan: string | null;
  plan_digest: string | null;
  decisions: string | null;
  cursor: string | null;
  progress: string;
  totals: string | null;
  receipt: string | null;
  error_code: string | null;
  error_message: string | null;
  created_by: string | null;
  token_id: string | null;
  lease_token: string | null;
  lease_expires_at: string | null;
  version: number;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
}

export interface TransferFilesTable {
  operation_id: string;
  path: string;
  kind: string;
  collection: string | null;
  storage_key: string | null;
  owned: number;
  size: number;
  sha256: string;
  records: number | null;
  position: number;
  created_at: string;
  uploaded_at: string | null;
}

export interface TransferApprovalsTable {
  id: string;
  user_id: string;
  token_id: string;
  action: TransferKind;
  args: string;
  args_digest: string;
  state: 'pending' | 'approved' | 'denied' | 'used';
  created_at: string;
  expires_at: string;
  decided_at: string | null;
  decided_by: string | null;
  used_at: string | null;
  operation_id: string | null;
}

export interface TransferTables {
  _cms_transfer_operations: TransferOperationsTable;
  _cms_transfer_files: TransferFilesTable;
  _cms_transfer_approvals: TransferApprovalsTable;
}
