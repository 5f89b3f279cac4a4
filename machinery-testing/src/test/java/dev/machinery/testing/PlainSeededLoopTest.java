package dev.machinery.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.machinery.core.codec.Codec;
import dev.machinery.core.codec.CodecFactory;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.unversioned.meta.v1.MetaV1;
import dev.machinery.unversioned.meta.v1.Status;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The fuzzer and the equality from a plain seeded loop, as any property framework would use them.
 */
class PlainSeededLoopTest {
  @Test
  void statusSurvivesYaml() {
    Codec yaml = CodecFactory.create(MetaV1.addToScheme(Scheme.builder()).build()).yaml();
    Fuzzer fuzzer = Fuzzer.defaults();
    SemanticEquality equality = SemanticEquality.defaults();
    for (long seed = 0; seed < 100; seed++) {
      Status status = fuzzer.fuzz(Status.class, new Random(seed));
      status.setApiVersion("v1");
      status.setKind("Status");
      Status back = yaml.decode(yaml.encode(status), Status.class).object();
      List<Difference> differences = equality.diff(status, back);
      assertEquals(List.of(), differences, "seed " + seed);
    }
  }
}
