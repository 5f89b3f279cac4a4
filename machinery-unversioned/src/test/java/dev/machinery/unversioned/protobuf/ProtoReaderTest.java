package dev.machinery.unversioned.protobuf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.machinery.core.codec.DecodeException;
import org.junit.jupiter.api.Test;

/** The public reader: a range of an array, each read bounded by it, errors naming what was read. */
class ProtoReaderTest {
  @Test
  void aRangeOutsideTheArrayIsRefused() {
    byte[] data = new byte[4];
    assertEquals(
        "[2, 6) is not within 4 bytes",
        assertThrows(IndexOutOfBoundsException.class, () -> new ProtoReader(data, 2, 6))
            .getMessage());
    assertThrows(IndexOutOfBoundsException.class, () -> new ProtoReader(data, 3, 2));
    assertThrows(IndexOutOfBoundsException.class, () -> new ProtoReader(data, -1, 2));
  }

  @Test
  void readsStayWithinTheRangeAndNameWhatWasRead() {
    // field 1 bytes "ab", then a length of 5 with 1 byte left; the last byte is outside the range.
    byte[] data = {0x0a, 0x02, 'a', 'b', 0x12, 0x05, 'c', 0x7f};
    ProtoReader in = new ProtoReader(data, 0, 7);
    assertEquals(0x0a, in.varint("tag"));
    assertArrayEquals(new byte[] {'a', 'b'}, in.bytes("first"));
    assertEquals(0x12, in.varint("tag"));
    DecodeException e = assertThrows(DecodeException.class, () -> in.bytes("second"));
    assertEquals("second: a length of 5 is more than the 1 bytes left", e.getMessage());
    ProtoReader empty = new ProtoReader(data, 7, 7);
    assertFalse(empty.hasMore());
    assertEquals(
        "end: the message ends inside a varint",
        assertThrows(DecodeException.class, () -> empty.varint("end")).getMessage());
  }
}
