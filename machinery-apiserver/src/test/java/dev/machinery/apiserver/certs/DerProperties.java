package dev.machinery.apiserver.certs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigInteger;
import java.security.KeyFactory;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Laws of the DER writer and reader on seeded random values: the reader gives back what the writer
 * wrote, and a PKCS#1 key wrapped here is the PKCS#8 the JDK writes. A failure names its seed.
 */
class DerProperties {
  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233})
  void objectIdentifiersReadBackAsWritten(long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    for (int i = 0; i < 200; i++) {
      int first = random.nextInt(3);
      StringBuilder dotted =
          new StringBuilder()
              .append(first)
              .append('.')
              .append(random.nextInt(first < 2 ? 40 : 500));
      int more = random.nextInt(6);
      for (int j = 0; j < more; j++) {
        long arc = random.nextBoolean() ? random.nextInt(200) : random.nextLong(Long.MAX_VALUE);
        dotted.append('.').append(arc);
      }
      byte[] encoded = Der.oid(dotted.toString());
      Der.Element element = new Der.Reader(encoded).next(Der.OID, "an OID");
      assertEquals(dotted.toString(), Der.oidString(element.contents()), "seed " + seed);
    }
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233})
  void elementsAndIntegersReadBackAsWritten(long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    for (int i = 0; i < 100; i++) {
      // Lengths around each boundary of the length's encoding: 127/128, 255/256, 65535/65536.
      int[] around = {0, 127, 128, 255, 256, 65535, 65536};
      int length = Math.max(0, around[random.nextInt(around.length)] + random.nextInt(-2, 3));
      byte[] contents = new byte[length];
      for (int j = 0; j < length; j++) {
        contents[j] = (byte) random.nextInt(256);
      }
      byte[] encoded = Der.octetString(contents);
      Der.Reader reader = new Der.Reader(encoded);
      Der.Element element = reader.next(Der.OCTET_STRING, "seed " + seed);
      assertArrayEquals(contents, element.contents(), "seed " + seed + ", length " + length);
      assertArrayEquals(encoded, element.encoded(), "seed " + seed);
      assertEquals(false, reader.hasNext(), "seed " + seed);

      BigInteger value =
          new BigInteger(random.nextInt(1, 300), new java.util.Random(random.nextLong()));
      BigInteger signed = random.nextBoolean() ? value : value.negate();
      Der.Element integer = new Der.Reader(Der.integer(signed)).next(Der.INTEGER, "an integer");
      assertEquals(signed, new BigInteger(integer.contents()), "seed " + seed);
    }
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3})
  void aWrappedPkcs1KeyIsTheJdksPkcs8(long seed) throws Exception {
    SecureRandom random = SecureRandom.getInstance("SHA1PRNG");
    random.setSeed(seed);
    KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
    generator.initialize(1024, random);
    PrivateKey key = generator.generateKeyPair().getPrivate();
    Der.Reader info = new Der.Reader(key.getEncoded()).next().children();
    info.next(Der.INTEGER, "version");
    info.next(Der.SEQUENCE, "algorithm");
    byte[] pkcs1 = info.next(Der.OCTET_STRING, "key").contents();
    byte[] wrapped = PrivateKeys.wrapPkcs1(pkcs1);
    assertArrayEquals(key.getEncoded(), wrapped, "seed " + seed);
    assertEquals(
        key, KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(wrapped)));
  }
}
