package dev.machinery.apiserver.certs;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The few ASN.1 DER encodings and decodings X.509 certificates and private keys need (X.690): each
 * encoder returns one whole element, tag, length and contents. Stateless and thread-safe, except a
 * {@link Reader}, which one thread uses.
 */
final class Der {
  static final int BOOLEAN = 0x01;
  static final int INTEGER = 0x02;
  static final int BIT_STRING = 0x03;
  static final int OCTET_STRING = 0x04;
  static final int NULL = 0x05;
  static final int OID = 0x06;
  static final int UTF8_STRING = 0x0c;
  static final int UTC_TIME = 0x17;
  static final int GENERALIZED_TIME = 0x18;
  static final int SEQUENCE = 0x30;
  static final int SET = 0x31;

  private static final DateTimeFormatter UTC_TIME_FORMAT =
      DateTimeFormatter.ofPattern("yyMMddHHmmss'Z'", Locale.ROOT);
  private static final DateTimeFormatter GENERALIZED_TIME_FORMAT =
      DateTimeFormatter.ofPattern("yyyyMMddHHmmss'Z'", Locale.ROOT);

  private Der() {}

  /** One element: the tag, the definite length in its shortest form, the contents. */
  static byte[] element(int tag, byte[] contents) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(contents.length + 6);
    out.write(tag);
    int length = contents.length;
    if (length < 0x80) {
      out.write(length);
    } else {
      int bytes = (Integer.SIZE - Integer.numberOfLeadingZeros(length) + 7) / 8;
      out.write(0x80 | bytes);
      for (int i = bytes - 1; i >= 0; i--) {
        out.write(length >>> (8 * i));
      }
    }
    out.writeBytes(contents);
    return out.toByteArray();
  }

  static byte[] concat(List<byte[]> parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] part : parts) {
      out.writeBytes(part);
    }
    return out.toByteArray();
  }

  static byte[] sequence(byte[]... elements) {
    return element(SEQUENCE, concat(List.of(elements)));
  }

  static byte[] sequence(List<byte[]> elements) {
    return element(SEQUENCE, concat(elements));
  }

  /** A SET of one element (a set of several would need its elements sorted). */
  static byte[] setOf(byte[] element) {
    return element(SET, element);
  }

  static byte[] integer(BigInteger value) {
    return element(INTEGER, value.toByteArray());
  }

  static byte[] integer(long value) {
    return integer(BigInteger.valueOf(value));
  }

  static byte[] bool(boolean value) {
    return element(BOOLEAN, new byte[] {value ? (byte) 0xff : 0});
  }

  static byte[] nul() {
    return element(NULL, new byte[0]);
  }

  static byte[] octetString(byte[] contents) {
    return element(OCTET_STRING, contents);
  }

  /** A BIT STRING of whole bytes. */
  static byte[] bitString(byte[] bytes) {
    byte[] contents = new byte[bytes.length + 1];
    System.arraycopy(bytes, 0, contents, 1, bytes.length);
    return element(BIT_STRING, contents);
  }

  /**
   * A named-bit BIT STRING (such as keyUsage) with the bits numbered from the most significant bit
   * of the first byte, trailing zero bits left out as DER requires.
   */
  static byte[] namedBits(List<Integer> bits) {
    int highest = bits.stream().mapToInt(Integer::intValue).max().orElse(-1);
    if (highest < 0) {
      return element(BIT_STRING, new byte[] {0});
    }
    byte[] contents = new byte[highest / 8 + 2];
    contents[0] = (byte) (7 - highest % 8);
    for (int bit : bits) {
      contents[1 + bit / 8] |= (byte) (0x80 >>> (bit % 8));
    }
    return element(BIT_STRING, contents);
  }

  static byte[] utf8String(String value) {
    return element(UTF8_STRING, value.getBytes(StandardCharsets.UTF_8));
  }

  /** An RFC 5280 time: UTCTime through 2049, GeneralizedTime from 2050, to the second. */
  static byte[] time(Instant instant) {
    ZonedDateTime utc = instant.atZone(ZoneOffset.UTC);
    if (utc.getYear() >= 1950 && utc.getYear() < 2050) {
      return element(UTC_TIME, utc.format(UTC_TIME_FORMAT).getBytes(StandardCharsets.US_ASCII));
    }
    return element(
        GENERALIZED_TIME, utc.format(GENERALIZED_TIME_FORMAT).getBytes(StandardCharsets.US_ASCII));
  }

  /** An OBJECT IDENTIFIER from its dotted form, such as {@code 2.5.4.3}. */
  static byte[] oid(String dotted) {
    String[] parts = dotted.split("\\.", -1);
    if (parts.length < 2) {
      throw new IllegalArgumentException("an OID has two arcs or more, got \"" + dotted + "\"");
    }
    List<BigInteger> arcs = new ArrayList<>();
    for (String part : parts) {
      if (part.isEmpty() || !part.chars().allMatch(c -> c >= '0' && c <= '9')) {
        throw new IllegalArgumentException("not an OID: \"" + dotted + "\"");
      }
      arcs.add(new BigInteger(part));
    }
    int first = arcs.get(0).intValueExact();
    if (first > 2 || first < 2 && arcs.get(1).compareTo(BigInteger.valueOf(40)) >= 0) {
      throw new IllegalArgumentException("not an OID: \"" + dotted + "\"");
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    writeBase128(out, arcs.get(1).add(BigInteger.valueOf(40L * first)));
    for (BigInteger arc : arcs.subList(2, arcs.size())) {
      writeBase128(out, arc);
    }
    return element(OID, out.toByteArray());
  }

  private static void writeBase128(ByteArrayOutputStream out, BigInteger value) {
    int groups = Math.max(1, (value.bitLength() + 6) / 7);
    for (int i = groups - 1; i >= 0; i--) {
      int group = value.shiftRight(7 * i).intValue() & 0x7f;
      out.write(i == 0 ? group : group | 0x80);
    }
  }

  /** The dotted form of an OBJECT IDENTIFIER's contents. */
  static String oidString(byte[] contents) {
    if (contents.length == 0 || (contents[contents.length - 1] & 0x80) != 0) {
      throw new IllegalArgumentException("a malformed OBJECT IDENTIFIER");
    }
    StringBuilder dotted = new StringBuilder();
    BigInteger arc = BigInteger.ZERO;
    boolean first = true;
    for (byte b : contents) {
      arc = arc.shiftLeft(7).or(BigInteger.valueOf(b & 0x7f));
      if ((b & 0x80) == 0) {
        if (first) {
          int top = arc.compareTo(BigInteger.valueOf(80)) >= 0 ? 2 : arc.intValue() / 40;
          dotted.append(top).append('.').append(arc.subtract(BigInteger.valueOf(40L * top)));
          first = false;
        } else {
          dotted.append('.').append(arc);
        }
        arc = BigInteger.ZERO;
      }
    }
    return dotted.toString();
  }

  /** One decoded element: its tag, its contents, and its whole encoding. */
  record Element(int tag, byte[] contents, byte[] encoded) {
    /** A reader over this element's contents, for a constructed element. */
    Reader children() {
      return new Reader(contents);
    }
  }

  /**
   * Reads a run of DER elements, refusing what DER does not allow: indefinite or over-long lengths,
   * multi-byte tags, and lengths running past the end. Failures are {@link
   * IllegalArgumentException}s, which callers turn into their own errors.
   */
  static final class Reader {
    private final byte[] bytes;
    private int position;

    Reader(byte[] bytes) {
      this.bytes = bytes;
    }

    boolean hasNext() {
      return position < bytes.length;
    }

    int peekTag() {
      if (!hasNext()) {
        throw new IllegalArgumentException("the DER ends where an element was expected");
      }
      return bytes[position] & 0xff;
    }

    Element next() {
      int start = position;
      int tag = peekTag();
      if ((tag & 0x1f) == 0x1f) {
        throw new IllegalArgumentException("a multi-byte DER tag");
      }
      position++;
      if (!hasNext()) {
        throw new IllegalArgumentException("the DER ends inside an element's length");
      }
      int first = bytes[position++] & 0xff;
      int length;
      if (first < 0x80) {
        length = first;
      } else {
        int count = first & 0x7f;
        if (count == 0 || count > 3) {
          throw new IllegalArgumentException(
              count == 0 ? "an indefinite DER length" : "a DER length too long");
        }
        if (position + count > bytes.length) {
          throw new IllegalArgumentException("the DER ends inside an element's length");
        }
        length = 0;
        for (int i = 0; i < count; i++) {
          length = length << 8 | bytes[position++] & 0xff;
        }
        if (length < 0x80 || length >>> (8 * (count - 1)) == 0) {
          throw new IllegalArgumentException("a DER length not in its shortest form");
        }
      }
      if (length > bytes.length - position) {
        throw new IllegalArgumentException(
            "a DER element of " + length + " bytes runs past the end");
      }
      byte[] contents = java.util.Arrays.copyOfRange(bytes, position, position + length);
      position += length;
      return new Element(tag, contents, java.util.Arrays.copyOfRange(bytes, start, position));
    }

    Element next(int expectedTag, String what) {
      Element element = next();
      if (element.tag() != expectedTag) {
        throw new IllegalArgumentException(
            String.format(
                Locale.ROOT,
                "%s: expected DER tag 0x%02x, found 0x%02x",
                what,
                expectedTag,
                element.tag()));
      }
      return element;
    }
  }
}
