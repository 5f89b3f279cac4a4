/**
 * NaCl's {@code crypto_secretbox_xsalsa20poly1305} written from its specification (Salsa20 and
 * HSalsa20 by D. J. Bernstein, Poly1305 as RFC 8439 states it), because the JDK has neither
 * XSalsa20 nor Poly1305: what the {@code secretbox} provider of an {@code EncryptionConfiguration}
 * encrypts with. Internal: not exported by the module.
 */
package dev.machinery.apiserver.storage.encryption.nacl;
