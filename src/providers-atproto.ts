/**
 * The AT Protocol login provider, installed apart from the included ones (the contract's "separately
 * installed decentralized-identity provider"): importing this module registers it. `cms serve` and
 * the local command line import it; a program embedding `createCms` imports it (or calls
 * `registerLoginProvider(atprotoProvider)`) before creating the service. Its client library is
 * loaded with the first sign-in, not here.
 */
import { atprotoProvider } from './services/auth/providers/atproto.js';
import { registerLoginProvider } from './services/auth/providers/registry.js';

registerLoginProvider(atprotoProvider);

export { atprotoProvider };
