package dev.machinery.core.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Decoding validated UTF-8 gives what the JDK's decoder gives, for every length of sequence. */
class Utf8DecodeTest {
  @Test
  void decodesAsTheJdkDoes() {
    Random random = new Random(11);
    int[][] ranges = {
      {1, 0x7F}, {0x80, 0x7FF}, {0x800, 0xD7FF}, {0xE000, 0xFFFF}, {0x10000, 0x10FFFF}
    };
    for (int round = 0; round < 2000; round++) {
      StringBuilder text = new StringBuilder();
      for (int i = random.nextInt(40); i > 0; i--) {
        int[] range = ranges[random.nextInt(ranges.length)];
        text.appendCodePoint(range[0] + random.nextInt(range[1] - range[0] + 1));
      }
      byte[] bytes = ("\uFEFF" + text).getBytes(StandardCharsets.UTF_8);
      int start = Utf8.validate(bytes, bytes.length);
      assertEquals(3, start, "the byte order mark is skipped");
      char[] out = new char[bytes.length];
      int length = Utf8.decodeValid(bytes, start, bytes.length, out);
      assertEquals(text.toString(), new String(out, 0, length), "round " + round);
    }
  }
}
