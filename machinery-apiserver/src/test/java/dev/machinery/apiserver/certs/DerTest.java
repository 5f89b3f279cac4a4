package dev.machinery.apiserver.certs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigInteger;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

class DerTest {
  private static String hex(byte[] bytes) {
    return HexFormat.of().formatHex(bytes);
  }

  @Test
  void encodesLengthsInTheirShortestForm() {
    assertEquals("0400", hex(Der.octetString(new byte[0])));
    assertEquals("047f", hex(Der.octetString(new byte[127])).substring(0, 4));
    assertEquals("048180", hex(Der.octetString(new byte[128])).substring(0, 6));
    assertEquals("0481ff", hex(Der.octetString(new byte[255])).substring(0, 6));
    assertEquals("04820100", hex(Der.octetString(new byte[256])).substring(0, 8));
    assertEquals("0483010000", hex(Der.octetString(new byte[65536])).substring(0, 10));
  }

  @Test
  void encodesIntegersInTwosComplement() {
    assertEquals("020100", hex(Der.integer(0)));
    assertEquals("02017f", hex(Der.integer(127)));
    assertEquals("02020080", hex(Der.integer(128)));
    assertEquals("0201ff", hex(Der.integer(-1)));
    assertEquals("0203010001", hex(Der.integer(65537)));
  }

  @Test
  void encodesObjectIdentifiers() {
    assertEquals("06092a864886f70d01010b", hex(Der.oid("1.2.840.113549.1.1.11")));
    assertEquals("0603550403", hex(Der.oid("2.5.4.3")));
    assertEquals("06082a8648ce3d030107", hex(Der.oid("1.2.840.10045.3.1.7")));
    assertEquals("06052b81040022", hex(Der.oid("1.3.132.0.34")));
    // The first two arcs of a 2.x OID may exceed 39: 2.999 is 40*2+999 = 1079.
    assertEquals("0603883703", hex(Der.oid("2.999.3")));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Der.oid("3.1"));
    assertEquals("not an OID: \"3.1\"", e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> Der.oid("1.40"));
    assertThrows(IllegalArgumentException.class, () -> Der.oid("1"));
    assertThrows(IllegalArgumentException.class, () -> Der.oid("1..2"));
    assertThrows(IllegalArgumentException.class, () -> Der.oid("1.2.-3"));
  }

  @Test
  void namedBitsDropTrailingZeroBits() {
    // digitalSignature (0) and keyCertSign (5): 10000100, two unused bits.
    assertEquals("03020284", hex(Der.namedBits(List.of(0, 5))));
    // digitalSignature alone: seven unused bits.
    assertEquals("03020780", hex(Der.namedBits(List.of(0))));
    // digitalSignature and keyEncipherment (2): 101, five unused.
    assertEquals("030205a0", hex(Der.namedBits(List.of(0, 2))));
    // decipherOnly (8) needs a second byte.
    assertEquals("0303070080", hex(Der.namedBits(List.of(8))));
    assertEquals("030100", hex(Der.namedBits(List.of())));
  }

  @Test
  void timesAreUtcTimeBefore2050AndGeneralizedTimeFrom() {
    assertEquals(
        "170d3236313132363030303030305a", hex(Der.time(Instant.parse("2026-11-26T00:00:00.9Z"))));
    assertEquals(
        "180f32303530303130313030303030305a", hex(Der.time(Instant.parse("2050-01-01T00:00:00Z"))));
    assertEquals(
        "180f31393439313233313233353935395a", hex(Der.time(Instant.parse("1949-12-31T23:59:59Z"))));
  }

  @Test
  void readsWhatItWrites() {
    byte[] encoded =
        Der.sequence(Der.integer(BigInteger.TEN), Der.octetString(new byte[300]), Der.nul());
    Der.Reader reader = new Der.Reader(encoded);
    Der.Element sequence = reader.next(Der.SEQUENCE, "the sequence");
    assertArrayEquals(encoded, sequence.encoded());
    Der.Reader children = sequence.children();
    assertEquals(BigInteger.TEN, new BigInteger(children.next(Der.INTEGER, "n").contents()));
    assertEquals(300, children.next(Der.OCTET_STRING, "o").contents().length);
    assertEquals(Der.NULL, children.next().tag());
    assertEquals(false, children.hasNext());
  }

  @Test
  void refusesWhatDerDoesNotAllow() {
    HexFormat h = HexFormat.of();
    assertEquals(
        "an indefinite DER length",
        assertThrows(
                IllegalArgumentException.class, () -> new Der.Reader(h.parseHex("3080")).next())
            .getMessage());
    assertEquals(
        "a DER length not in its shortest form",
        assertThrows(
                IllegalArgumentException.class, () -> new Der.Reader(h.parseHex("04817f")).next())
            .getMessage());
    assertEquals(
        "a DER element of 5 bytes runs past the end",
        assertThrows(
                IllegalArgumentException.class, () -> new Der.Reader(h.parseHex("0405aabb")).next())
            .getMessage());
    assertEquals(
        "a multi-byte DER tag",
        assertThrows(
                IllegalArgumentException.class, () -> new Der.Reader(h.parseHex("1f0100")).next())
            .getMessage());
    assertEquals(
        "the DER ends inside an element's length",
        assertThrows(IllegalArgumentException.class, () -> new Der.Reader(h.parseHex("04")).next())
            .getMessage());
    assertEquals(
        "a DER length too long",
        assertThrows(
                IllegalArgumentException.class,
                () -> new Der.Reader(h.parseHex("0484ffffffff")).next())
            .getMessage());
    assertEquals(
        "x: expected DER tag 0x30, found 0x04",
        assertThrows(
                IllegalArgumentException.class,
                () -> new Der.Reader(h.parseHex("0400")).next(Der.SEQUENCE, "x"))
            .getMessage());
  }
}
