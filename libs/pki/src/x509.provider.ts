// @peculiar/x509 resolves its algorithms through tsyringe, which needs the Reflect metadata polyfill loaded first.
import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

// Node's own WebCrypto does all key generation and signing.
x509.cryptoProvider.set(webcrypto);

/** @peculiar/x509, ready to use; import it from here so the set-up above always runs first. */
export { x509 };
