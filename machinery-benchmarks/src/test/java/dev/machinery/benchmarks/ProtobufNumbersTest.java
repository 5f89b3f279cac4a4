package dev.machinery.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.machinery.benchmarks.apps.v1.Deployment;
import dev.machinery.core.codec.CodecFactory;
import dev.machinery.core.codec.FieldValidation;
import dev.machinery.unversioned.protobuf.ProtobufCodec;
import java.io.IOException;
import java.io.InputStream;
import org.junit.jupiter.api.Test;

/**
 * The benchmark model's protobuf field numbers are Kubernetes': Kubernetes' own fully populated
 * apps/v1 Deployment, read from its protobuf bytes, gives the same values for every field the model
 * holds as its JSON form does.
 */
class ProtobufNumbersTest {
  private static byte[] fixture(String name) throws IOException {
    try (InputStream in =
        ProtobufNumbersTest.class.getResourceAsStream("/k8s-api-testdata/HEAD/" + name)) {
      return in.readAllBytes();
    }
  }

  @Test
  void kubernetesBytesReadAsTheJsonReads() throws IOException {
    Deployment fromProtobuf =
        ProtobufCodec.create(BenchmarkData.scheme())
            .decode(fixture("apps.v1.Deployment.pb"), Deployment.class)
            .object();
    Deployment fromJson =
        CodecFactory.create(BenchmarkData.scheme())
            .json()
            .withFieldValidation(FieldValidation.IGNORE)
            .decode(fixture("apps.v1.Deployment.json"), Deployment.class)
            .object();
    CodecFactory codecs = CodecFactory.create(BenchmarkData.scheme());
    assertEquals(
        codecs.json().encodeToString(fromJson), codecs.json().encodeToString(fromProtobuf));
  }
}
