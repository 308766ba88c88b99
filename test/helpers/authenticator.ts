import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { Encoder } from 'cbor-x';

/**
 * A software WebAuthn authenticator for tests: P-256 keys from node:crypto,
 * attestation format `none`, discoverable credentials, a signature counter.
 * Registration and sign-in then run for real against @simplewebauthn/server.
 */
// Plain CBOR maps (no tag 259, no records) and untagged byte strings, as authenticators emit.
const cborOptions = { useRecords: false, tagUint8Array: false, useTag259ForMaps: false, variableMapSize: true };
const cbor = new Encoder(cborOptions as ConstructorParameters<typeof Encoder>[0]);

const b64url = (b: Uint8Array | Buffer | string) => Buffer.from(b).toString('base64url');
const sha256 = (b: Uint8Array | Buffer | string) => createHash('sha256').update(b).digest();

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_BE = 0x08;
const FLAG_BS = 0x10;
const FLAG_AT = 0x40;

export interface SoftCredential {
  id: string;
  rpId: string;
  userHandle: string;
  privateKey: KeyObject;
  counter: number;
}

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
}

export class SoftAuthenticator {
  readonly credentials: SoftCredential[] = [];

  /**
   * @param origin the page origin the "browser" reports (the site's public origin unless a test lies)
   * @param options.counter false for an authenticator without a signature counter (always 0)
   */
  constructor(
    readonly origin: string,
    readonly options: { counter?: boolean; synced?: boolean } = {},
  ) {}

  /** navigator.credentials.create(): a new discoverable credential for the options' RP and user. */
  register(
    opts: PublicKeyCredentialCreationOptionsJSON,
    overrides: { origin?: string; rpId?: string; challenge?: string } = {},
  ): RegistrationResponseJSON {
    const rpId = overrides.rpId ?? opts.rp.id ?? new URL(this.origin).hostname;
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const coseKey = new Map<number, number | Buffer>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, Buffer.from(jwk.x!, 'base64url')],
      [-3, Buffer.from(jwk.y!, 'base64url')],
    ]);
    const credId = randomBytes(16);
    const counter = this.options.counter === false ? 0 : 0;
    const flags = FLAG_UP | FLAG_UV | FLAG_AT | (this.options.synced ? FLAG_BE | FLAG_BS : 0);
    const idLen = Buffer.alloc(2);
    idLen.writeUInt16BE(credId.length);
    const authData = Buffer.concat([
      sha256(rpId),
      Buffer.from([flags]),
      u32(counter),
      Buffer.alloc(16), // AAGUID: zeros
      idLen,
      credId,
      Buffer.from(cbor.encode(coseKey)),
    ]);
    const attestationObject = Buffer.from(cbor.encode({ fmt: 'none', attStmt: {}, authData }));
    const clientDataJSON = JSON.stringify({
      type: 'webauthn.create',
      challenge: overrides.challenge ?? opts.challenge,
      origin: overrides.origin ?? this.origin,
      crossOrigin: false,
    });
    this.credentials.push({ id: b64url(credId), rpId, userHandle: opts.user.id, privateKey, counter });
    return {
      id: b64url(credId),
      rawId: b64url(credId),
      type: 'public-key',
      response: {
        clientDataJSON: b64url(clientDataJSON),
        attestationObject: b64url(attestationObject),
        transports: ['internal'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /**
   * navigator.credentials.get(): sign the challenge with a stored credential
   * (the last one made, unless `credentialId` names another). The counter
   * grows by one unless `counter` forces a value (to replay or clone).
   */
  assert(
    opts: PublicKeyCredentialRequestOptionsJSON,
    overrides: { credentialId?: string; counter?: number; origin?: string; userHandle?: string | null } = {},
  ): AuthenticationResponseJSON {
    const cred = overrides.credentialId
      ? this.credentials.find((c) => c.id === overrides.credentialId)
      : this.credentials[this.credentials.length - 1];
    if (!cred) throw new Error('the soft authenticator holds no such credential');
    if (overrides.counter !== undefined) cred.counter = overrides.counter;
    else if (this.options.counter !== false) cred.counter += 1;
    const flags = FLAG_UP | FLAG_UV | (this.options.synced ? FLAG_BE | FLAG_BS : 0);
    const authData = Buffer.concat([sha256(opts.rpId ?? cred.rpId), Buffer.from([flags]), u32(cred.counter)]);
    const clientDataJSON = Buffer.from(
      JSON.stringify({ type: 'webauthn.get', challenge: opts.challenge, origin: overrides.origin ?? this.origin }),
    );
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), cred.privateKey);
    const userHandle = overrides.userHandle === undefined ? cred.userHandle : overrides.userHandle;
    return {
      id: cred.id,
      rawId: cred.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        ...(userHandle ? { userHandle } : {}),
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }
}
