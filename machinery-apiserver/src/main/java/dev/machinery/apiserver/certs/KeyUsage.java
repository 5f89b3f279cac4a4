package dev.machinery.apiserver.certs;

/**
 * The key usages of RFC 5280's keyUsage extension that serving and CA certificates use, each with
 * its bit number.
 */
public enum KeyUsage {
  /** {@code digitalSignature}, bit 0: TLS handshake signatures. */
  DIGITAL_SIGNATURE(0),
  /** {@code keyEncipherment}, bit 2: RSA key exchange (RSA keys only). */
  KEY_ENCIPHERMENT(2),
  /** {@code keyCertSign}, bit 5: signing certificates (CAs only). */
  KEY_CERT_SIGN(5);

  private final int bit;

  KeyUsage(int bit) {
    this.bit = bit;
  }

  /**
   * Returns the bit's number in the extension's BIT STRING.
   *
   * @return the number, 0 for the first
   */
  public int bit() {
    return bit;
  }
}
