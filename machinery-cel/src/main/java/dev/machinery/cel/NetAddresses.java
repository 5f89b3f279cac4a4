package dev.machinery.cel;

import dev.machinery.unversioned.validation.FieldError;

/**
 * IP addresses and CIDR prefixes as Kubernetes' CEL {@code ip} and {@code cidr} libraries read
 * them, which is Go's {@code net/netip}: IPv4 in dotted decimal without leading zeros, IPv6 in any
 * RFC 4291 text form (an embedded IPv4 address in the last 32 bits included), no zones, no
 * IPv4-mapped IPv6 addresses; parse errors in Go's words ({@code ParseAddr("1.2.3"): IPv4 address
 * too short}). Addresses print in canonical form (RFC 5952 for IPv6). Stateless; the values are
 * immutable.
 */
final class NetAddresses {
  private NetAddresses() {}

  /**
   * An IP address, the runtime value of {@code net.IP}: 128 bits as two longs (an IPv4 address as
   * {@code ::ffff:a.b.c.d}, as Go holds it) and its family.
   *
   * @param hi the high 64 bits
   * @param lo the low 64 bits
   * @param v4 whether the address is an IPv4 address
   */
  record Ip(long hi, long lo, boolean v4) {
    static Ip ofV4(int bits) {
      return new Ip(0, 0xffff_0000_0000L | (bits & 0xffff_ffffL), true);
    }

    int family() {
      return v4 ? 4 : 6;
    }

    int bitLength() {
      return v4 ? 32 : 128;
    }

    private int v4Byte(int i) {
      return (int) (lo >>> (8 * (3 - i))) & 0xff;
    }

    private int group(int i) {
      long half = i < 4 ? hi : lo;
      return (int) (half >>> (16 * (3 - i % 4))) & 0xffff;
    }

    boolean isV4InV6() {
      return !v4 && hi == 0 && lo >>> 32 == 0xffff;
    }

    boolean isUnspecified() {
      return v4 ? (lo & 0xffff_ffffL) == 0 : hi == 0 && lo == 0;
    }

    boolean isLoopback() {
      return v4 ? v4Byte(0) == 127 : hi == 0 && lo == 1;
    }

    boolean isMulticast() {
      return v4 ? (v4Byte(0) & 0xf0) == 0xe0 : hi >>> 56 == 0xff;
    }

    boolean isLinkLocalMulticast() {
      return v4
          ? v4Byte(0) == 224 && v4Byte(1) == 0 && v4Byte(2) == 0
          : (group(0) & 0xff0f) == 0xff02;
    }

    boolean isLinkLocalUnicast() {
      return v4 ? v4Byte(0) == 169 && v4Byte(1) == 254 : (group(0) & 0xffc0) == 0xfe80;
    }

    boolean isGlobalUnicast() {
      if (v4 && ((lo & 0xffff_ffffL) == 0 || (lo & 0xffff_ffffL) == 0xffff_ffffL)) {
        return false;
      }
      return !isUnspecified() && !isLoopback() && !isMulticast() && !isLinkLocalUnicast();
    }

    /** This address with all but its first {@code bits} bits cleared. */
    Ip masked(int bits) {
      if (v4) {
        long mask = bits == 0 ? 0 : (0xffff_ffffL << (32 - bits)) & 0xffff_ffffL;
        return new Ip(0, 0xffff_0000_0000L | (lo & mask), true);
      }
      long hiMask = bits >= 64 ? -1L : bits == 0 ? 0 : -1L << (64 - bits);
      long loMask = bits <= 64 ? 0 : bits == 128 ? -1L : -1L << (128 - bits);
      return new Ip(hi & hiMask, lo & loMask, false);
    }

    @Override
    public String toString() {
      if (v4) {
        return v4Byte(0) + "." + v4Byte(1) + "." + v4Byte(2) + "." + v4Byte(3);
      }
      if (isV4InV6()) {
        return "::ffff:" + ofV4((int) lo);
      }
      int zeroStart = -1;
      int zeroEnd = -1;
      for (int i = 0; i < 8; i++) {
        int j = i;
        while (j < 8 && group(j) == 0) {
          j++;
        }
        if (j - i >= 2 && j - i > zeroEnd - zeroStart) {
          zeroStart = i;
          zeroEnd = j;
        }
      }
      StringBuilder out = new StringBuilder(39);
      for (int i = 0; i < 8; i++) {
        if (i == zeroStart) {
          out.append("::");
          i = zeroEnd - 1;
          continue;
        }
        if (i > 0 && i != zeroEnd) {
          out.append(':');
        }
        out.append(Integer.toHexString(group(i)));
      }
      return out.toString();
    }
  }

  /**
   * A CIDR prefix, the runtime value of {@code net.CIDR}: an address as written (not masked) and a
   * prefix length.
   *
   * @param ip the address
   * @param bits the prefix length
   */
  record Cidr(Ip ip, int bits) {
    boolean contains(Ip other) {
      return other.v4() == ip.v4() && ip.masked(bits).equals(other.masked(bits));
    }

    boolean containsCidr(Cidr other) {
      int min = Math.min(bits, other.bits());
      boolean overlaps =
          other.ip().v4() == ip.v4() && ip.masked(min).equals(other.ip().masked(min));
      return overlaps && bits <= other.bits();
    }

    Cidr masked() {
      return new Cidr(ip.masked(bits), bits);
    }

    @Override
    public String toString() {
      return ip + "/" + bits;
    }
  }

  /** A text Go's {@code net/netip} does not read, with Go's message. */
  static final class ParseException extends Exception {
    private static final long serialVersionUID = 1L;

    ParseException(String message) {
      super(message, null, false, false);
    }
  }

  /** Go's {@code netip.ParseAddr}, zones kept out of the result but reported. */
  private static ParsedAddr parseAddr(String s) throws ParseException {
    for (int i = 0; i < s.length(); i++) {
      switch (s.charAt(i)) {
        case '.':
          return new ParsedAddr(parseV4(s, s), false);
        case ':':
          return parseV6(s);
        case '%':
          throw addrError(s, "missing IPv6 address", null);
        default:
          break;
      }
    }
    throw addrError(s, "unable to parse IP", null);
  }

  private record ParsedAddr(Ip ip, boolean zoned) {}

  private static ParseException addrError(String in, String msg, String at) {
    String text = "ParseAddr(" + FieldError.quote(in) + "): " + msg;
    return new ParseException(
        at == null || at.isEmpty() ? text : text + " (at " + FieldError.quote(at) + ")");
  }

  private static Ip parseV4(String s, String in) throws ParseException {
    int bits = 0;
    int val = 0;
    int pos = 0;
    int digits = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c >= '0' && c <= '9') {
        if (digits == 1 && val == 0) {
          throw addrError(in, "IPv4 field has octet with leading zero", null);
        }
        val = val * 10 + (c - '0');
        digits++;
        if (val > 255) {
          throw addrError(in, "IPv4 field has value >255", null);
        }
      } else if (c == '.') {
        if (i == 0 || i == s.length() - 1 || s.charAt(i - 1) == '.') {
          throw addrError(in, "IPv4 field must have at least one digit", s.substring(i));
        }
        if (pos == 3) {
          throw addrError(in, "IPv4 address too long", null);
        }
        bits = bits << 8 | val;
        pos++;
        val = 0;
        digits = 0;
      } else {
        throw addrError(in, "unexpected character", s.substring(i));
      }
    }
    if (pos < 3) {
      throw addrError(in, "IPv4 address too short", null);
    }
    return Ip.ofV4(bits << 8 | val);
  }

  private static ParsedAddr parseV6(String in) throws ParseException {
    String s = in;
    boolean zoned = false;
    int percent = s.indexOf('%');
    if (percent >= 0) {
      if (percent == s.length() - 1) {
        throw addrError(in, "zone must be a non-empty string", null);
      }
      s = s.substring(0, percent);
      zoned = true;
    }
    int[] bytes = new int[16];
    int ellipsis = -1;
    if (s.length() >= 2 && s.charAt(0) == ':' && s.charAt(1) == ':') {
      ellipsis = 0;
      s = s.substring(2);
      if (s.isEmpty()) {
        return new ParsedAddr(new Ip(0, 0, false), zoned);
      }
    }
    int i = 0;
    while (i < 16) {
      int off = 0;
      int acc = 0;
      for (; off < s.length(); off++) {
        int digit = Character.digit(s.charAt(off), 16);
        if (digit < 0 || s.charAt(off) > 'f') {
          break;
        }
        acc = (acc << 4) + digit;
        if (acc > 0xffff) {
          throw addrError(in, "IPv6 field has value >=2^16", s);
        }
      }
      if (off == 0) {
        throw addrError(in, "each colon-separated field must have at least one digit", s);
      }
      if (off < s.length() && s.charAt(off) == '.') {
        if (ellipsis < 0 && i != 12) {
          throw addrError(
              in, "embedded IPv4 address must replace the final 2 fields of the address", s);
        }
        if (i + 4 > 16) {
          throw addrError(
              in, "too many hex fields to fit an embedded IPv4 at the end of the address", s);
        }
        Ip v4;
        try {
          v4 = parseV4(s, s);
        } catch (ParseException e) {
          throw addrError(in, e.getMessage(), s);
        }
        for (int b = 0; b < 4; b++) {
          bytes[i + b] = (int) (v4.lo() >>> (8 * (3 - b))) & 0xff;
        }
        s = "";
        i += 4;
        break;
      }
      bytes[i] = acc >> 8;
      bytes[i + 1] = acc & 0xff;
      i += 2;
      s = s.substring(off);
      if (s.isEmpty()) {
        break;
      }
      if (s.charAt(0) != ':') {
        throw addrError(in, "unexpected character, want colon", s);
      } else if (s.length() == 1) {
        throw addrError(in, "colon must be followed by more characters", s);
      }
      s = s.substring(1);
      if (s.charAt(0) == ':') {
        if (ellipsis >= 0) {
          throw addrError(in, "multiple :: in address", s);
        }
        ellipsis = i;
        s = s.substring(1);
        if (s.isEmpty()) {
          break;
        }
      }
    }
    if (!s.isEmpty()) {
      throw addrError(in, "trailing garbage after address", s);
    }
    if (i < 16) {
      if (ellipsis < 0) {
        throw addrError(in, "address string too short", null);
      }
      int n = 16 - i;
      for (int j = i - 1; j >= ellipsis; j--) {
        bytes[j + n] = bytes[j];
      }
      for (int j = ellipsis + n - 1; j >= ellipsis; j--) {
        bytes[j] = 0;
      }
    } else if (ellipsis >= 0) {
      throw addrError(in, "the :: must expand to at least one field of zeros", null);
    }
    long hi = 0;
    long lo = 0;
    for (int b = 0; b < 8; b++) {
      hi = hi << 8 | bytes[b];
      lo = lo << 8 | bytes[b + 8];
    }
    return new ParsedAddr(new Ip(hi, lo, false), zoned);
  }

  /**
   * An address as Kubernetes' {@code ip()} reads it.
   *
   * @throws ParseException with Kubernetes' message
   */
  static Ip parseIp(String raw) throws ParseException {
    ParsedAddr addr;
    try {
      addr = parseAddr(raw);
    } catch (ParseException e) {
      throw new ParseException(
          "IP Address "
              + FieldError.quote(raw)
              + " parse error during conversion from string: "
              + e.getMessage());
    }
    if (addr.zoned()) {
      throw new ParseException(
          "IP address " + FieldError.quote(raw) + " with zone value is not allowed");
    }
    if (addr.ip().isV4InV6()) {
      throw new ParseException(
          "IPv4-mapped IPv6 address " + FieldError.quote(raw) + " is not allowed");
    }
    return addr.ip();
  }

  /**
   * A prefix as Kubernetes' {@code cidr()} reads it (Go's {@code netip.ParsePrefix}).
   *
   * @throws ParseException with Kubernetes' message
   */
  static Cidr parseCidr(String raw) throws ParseException {
    String prefix = "network address parse error during conversion from string: ";
    int slash = raw.lastIndexOf('/');
    if (slash < 0) {
      throw new ParseException(prefix + prefixError(raw, "no '/'"));
    }
    ParsedAddr addr;
    try {
      addr = parseAddr(raw.substring(0, slash));
    } catch (ParseException e) {
      throw new ParseException(prefix + prefixError(raw, e.getMessage()));
    }
    if (addr.zoned()) {
      throw new ParseException(
          prefix + prefixError(raw, "IPv6 zones cannot be present in a prefix"));
    }
    String bitsText = raw.substring(slash + 1);
    long bits = -1;
    boolean digitsOnly =
        !bitsText.isEmpty() && bitsText.chars().allMatch(c -> c >= '0' && c <= '9');
    if (digitsOnly && (bitsText.length() == 1 || bitsText.charAt(0) != '0')) {
      try {
        bits = Long.parseLong(bitsText);
      } catch (NumberFormatException e) {
        bits = -1;
      }
    }
    if (bits < 0) {
      throw new ParseException(
          prefix + prefixError(raw, "bad bits after slash: " + FieldError.quote(bitsText)));
    }
    if (bits > addr.ip().bitLength()) {
      throw new ParseException(prefix + prefixError(raw, "prefix length out of range"));
    }
    if (addr.ip().isV4InV6()) {
      throw new ParseException(
          prefix + "IPv4-mapped IPv6 address " + FieldError.quote(raw) + " is not allowed");
    }
    return new Cidr(addr.ip(), (int) bits);
  }

  private static String prefixError(String in, String msg) {
    return "network address parse error during conversion from string: netip.ParsePrefix("
        + FieldError.quote(in)
        + "): "
        + msg;
  }
}
