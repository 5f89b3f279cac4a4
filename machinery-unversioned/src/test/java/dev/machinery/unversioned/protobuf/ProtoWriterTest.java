package dev.machinery.unversioned.protobuf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Nested messages written in place ({@link ProtoWriter#beginMessage}) give the bytes of the same
 * messages each written into a writer of its own and added whole ({@link ProtoWriter#bytesField}),
 * whatever their nesting and sizes, lengths of one to three bytes included.
 */
class ProtoWriterTest {
  /**
   * Writes a seeded random message into a writer: nested messages in place, or each into a writer
   * of its own added whole; the same seed makes the same message either way.
   */
  private static void write(ProtoWriter out, Random random, int depth, boolean inPlace) {
    int fields = random.nextInt(4) + (depth == 0 ? 1 : 0);
    for (int f = 0; f < fields; f++) {
      int number = 1 + random.nextInt(20);
      switch (depth < 6 ? random.nextInt(4) : random.nextInt(3)) {
        case 0 -> out.varintField(number, random.nextLong() >>> random.nextInt(64));
        case 1 -> out.stringField(number, "s".repeat(sizes(random)));
        case 2 -> out.fixed64(random.nextLong());
        default -> {
          if (inPlace) {
            int message = out.beginMessage(number);
            write(out, random, depth + 1, true);
            out.endMessage(message);
          } else {
            ProtoWriter nested = new ProtoWriter();
            write(nested, random, depth + 1, false);
            out.bytesField(number, nested.toByteArray());
          }
        }
      }
    }
  }

  /** Sizes about the bounds of one-, two- and three-byte lengths. */
  private static int sizes(Random random) {
    int[] around = {0, 1, 60, 127, 128, 129, 16_383, 16_384, 20_000};
    return Math.max(0, around[random.nextInt(around.length)] - random.nextInt(3));
  }

  @Test
  void messagesWrittenInPlaceAreTheMessagesWrittenWhole() {
    for (long seed = 0; seed < 300; seed++) {
      ProtoWriter a = new ProtoWriter();
      write(a, new Random(seed), 0, true);
      ProtoWriter b = new ProtoWriter();
      write(b, new Random(seed), 0, false);
      assertArrayEquals(b.toByteArray(), a.toByteArray(), "seed " + seed);
    }
  }

  @Test
  void anEmptyMessageHasALengthOfZero() {
    ProtoWriter out = new ProtoWriter();
    int outer = out.beginMessage(1);
    int inner = out.beginMessage(2);
    out.endMessage(inner);
    out.endMessage(outer);
    assertArrayEquals(new byte[] {0x0a, 2, 0x12, 0}, out.toByteArray());
  }

  @Test
  void messagesEndInnermostFirstAndAllEndBeforeTheBytesAreRead() {
    ProtoWriter out = new ProtoWriter();
    int outer = out.beginMessage(1);
    int inner = out.beginMessage(2);
    assertEquals(
        "message " + outer + " is not the innermost message open in this writer",
        assertThrows(IllegalStateException.class, () -> out.endMessage(outer)).getMessage());
    out.endMessage(inner);
    assertEquals(
        "1 nested messages begun and not ended",
        assertThrows(IllegalStateException.class, out::toByteArray).getMessage());
    out.endMessage(outer);
    assertArrayEquals(new byte[] {0x0a, 2, 0x12, 0}, out.toByteArray());
  }
}
