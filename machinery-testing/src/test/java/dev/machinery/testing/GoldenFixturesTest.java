package dev.machinery.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.unversioned.meta.v1.MetaV1;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GoldenFixturesTest {
  private static final Scheme SCHEME = MetaV1.addToScheme(Scheme.builder()).build();

  @Test
  void writtenFixturesCheckAndAChangedOneFailsWithItsPath(@TempDir Path directory)
      throws IOException {
    GoldenFixtures fixtures = GoldenFixtures.forScheme(SCHEME, directory);
    AssertionError missing = assertThrows(AssertionError.class, fixtures::check);
    assertTrue(
        missing
            .getMessage()
            .contains(
                "missing; write the fixtures on purpose with"
                    + " -Dmachinery.fixtures.update=true"),
        missing.getMessage());
    fixtures.write();
    fixtures.check();
    Path scale = fixtures.fixture(GroupVersionKind.of("autoscaling", "v1", "Scale"), "json");
    assertEquals(directory.resolve("autoscaling/v1/Scale.json"), scale);
    String text = Files.readString(scale, StandardCharsets.UTF_8);
    Files.writeString(scale, text.replace("\"spec\"", "\"specification\""), StandardCharsets.UTF_8);
    AssertionError removed = assertThrows(AssertionError.class, fixtures::check);
    assertTrue(
        removed.getMessage().startsWith(scale + ": no longer decodes: "), removed.getMessage());
    assertTrue(removed.getMessage().contains("specification"), removed.getMessage());
    Files.writeString(scale, text.replace("  \"kind\"", "\"kind\""), StandardCharsets.UTF_8);
    AssertionError changed = assertThrows(AssertionError.class, fixtures::check);
    assertTrue(
        changed.getMessage().startsWith(scale + ": re-encodes differently; line 3:"),
        changed.getMessage());
  }

  @Test
  void updatesOnlyWhenAsked(@TempDir Path directory) {
    GoldenFixtures fixtures =
        GoldenFixtures.forScheme(SCHEME, directory).with(Fuzzer.defaults(), 9);
    assertThrows(AssertionError.class, fixtures::checkOrUpdate);
    String before = System.getProperty("machinery.fixtures.update");
    System.setProperty("machinery.fixtures.update", "true");
    try {
      fixtures.checkOrUpdate();
    } finally {
      if (before == null) {
        System.clearProperty("machinery.fixtures.update");
      } else {
        System.setProperty("machinery.fixtures.update", before);
      }
    }
    fixtures.checkOrUpdate();
    assertEquals(fixtures.kinds().size(), fixtures.dynamicTests().count());
  }
}
