package dev.machinery.testing;

import dev.machinery.core.codec.Codec;
import dev.machinery.core.codec.CodecFactory;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.runtime.TypeAccessor;
import dev.machinery.core.schema.GroupVersionKind;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;

/**
 * Keeps the encoding of every external kind stable across releases, as Kubernetes keeps {@code
 * testdata/} per release: {@link #write()} stores a fuzzed object of each kind in each served
 * version as JSON and YAML under a folder the project commits ({@code <dir>/<group or
 * core>/<version>/<Kind>.json}); {@link #check()} decodes each fixture strictly and re-encodes it,
 * and fails, naming the fixture and the first differing line, when the document changes (a removed
 * or renamed field fails to decode; a changed type or default changes the text). Fixtures are
 * rewritten only on purpose: {@code -Dmachinery.fixtures.update=true} with {@link
 * #checkOrUpdate()}, or a call to {@link #write()}.
 *
 * <p>Immutable; not for concurrent use on one folder.
 */
public final class GoldenFixtures {
  private final Scheme scheme;
  private final Path directory;
  private final Fuzzer fuzzer;
  private final long seed;
  private final Codec json;
  private final Codec yaml;

  private GoldenFixtures(Scheme scheme, Path directory, Fuzzer fuzzer, long seed) {
    this.scheme = scheme;
    this.directory = directory;
    this.fuzzer = fuzzer;
    this.seed = seed;
    CodecFactory codecs = CodecFactory.create(scheme);
    this.json = codecs.json().pretty().withDefaulting(true);
    this.yaml = codecs.yaml().withDefaulting(true);
  }

  /**
   * Returns the fixtures of a scheme's kinds in a folder, fuzzed with the default fuzzer from seed
   * 1.
   *
   * @param scheme the scheme
   * @param directory the folder, such as {@code src/test/resources/fixtures}
   * @return the fixtures
   */
  public static GoldenFixtures forScheme(Scheme scheme, Path directory) {
    return new GoldenFixtures(
        Objects.requireNonNull(scheme, "scheme"),
        Objects.requireNonNull(directory, "directory"),
        Fuzzer.defaults(),
        1L);
  }

  /**
   * Returns fixtures like these with another fuzzer and seed (which change every fixture).
   *
   * @param fuzzer the fuzzer
   * @param seed the seed
   * @return the fixtures
   */
  public GoldenFixtures with(Fuzzer fuzzer, long seed) {
    return new GoldenFixtures(scheme, directory, Objects.requireNonNull(fuzzer, "fuzzer"), seed);
  }

  /**
   * Returns the external kinds that have fixtures.
   *
   * @return the kinds
   */
  public List<GroupVersionKind> kinds() {
    List<GroupVersionKind> kinds = new ArrayList<>();
    for (Map.Entry<GroupVersionKind, Class<?>> entry : scheme.allKnownTypes().entrySet()) {
      if (!entry.getKey().groupVersion().isInternal()) {
        kinds.add(entry.getKey());
      }
    }
    return kinds;
  }

  /**
   * Returns the fixture file of a kind.
   *
   * @param kind the kind
   * @param extension {@code json} or {@code yaml}
   * @return the path
   */
  public Path fixture(GroupVersionKind kind, String extension) {
    return directory
        .resolve(kind.group().isEmpty() ? "core" : kind.group())
        .resolve(kind.version())
        .resolve(kind.kind() + "." + extension);
  }

  /**
   * Writes every fixture, replacing what is there.
   *
   * @throws UncheckedIOException if a file cannot be written
   */
  public void write() {
    for (GroupVersionKind kind : kinds()) {
      Object object = fuzzer.fuzz(scheme.typeFor(kind).orElseThrow(), new Random(seed));
      TypeAccessor.of(object).setApiVersion(object, kind.apiVersion());
      TypeAccessor.of(object).setKind(object, kind.kind());
      writeFile(fixture(kind, "json"), json.encode(object));
      writeFile(fixture(kind, "yaml"), yaml.encode(object));
    }
  }

  private static void writeFile(Path path, byte[] bytes) {
    try {
      Files.createDirectories(path.getParent());
      Files.write(path, bytes);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Checks every fixture.
   *
   * @throws AssertionError naming every fixture that is missing, no longer decodes, or no longer
   *     re-encodes to itself
   */
  public void check() {
    List<String> problems = new ArrayList<>();
    for (GroupVersionKind kind : kinds()) {
      checkKind(kind, problems);
    }
    if (!problems.isEmpty()) {
      throw new AssertionError(String.join("\n", problems));
    }
  }

  /**
   * Writes the fixtures when {@code -Dmachinery.fixtures.update=true}, checks them otherwise.
   *
   * @throws AssertionError as {@link #check()}
   */
  public void checkOrUpdate() {
    if (Boolean.getBoolean("machinery.fixtures.update")) {
      write();
    } else {
      check();
    }
  }

  /**
   * Returns one JUnit 5 dynamic test per kind.
   *
   * @return the tests
   */
  public Stream<DynamicTest> dynamicTests() {
    return kinds().stream()
        .map(
            kind ->
                DynamicTest.dynamicTest(
                    kind.toString(),
                    () -> {
                      List<String> problems = new ArrayList<>();
                      checkKind(kind, problems);
                      if (!problems.isEmpty()) {
                        throw new AssertionError(String.join("\n", problems));
                      }
                    }));
  }

  private void checkKind(GroupVersionKind kind, List<String> problems) {
    for (String extension : List.of("json", "yaml")) {
      Path path = fixture(kind, extension);
      Codec codec = extension.equals("json") ? json : yaml;
      if (!Files.exists(path)) {
        problems.add(
            path
                + ": missing; write the fixtures on purpose with -Dmachinery.fixtures.update=true");
        continue;
      }
      String stored;
      try {
        stored = Files.readString(path, StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      String again;
      try {
        Object decoded =
            codec
                .decode(stored.getBytes(StandardCharsets.UTF_8), scheme.typeFor(kind).orElseThrow())
                .object();
        again = new String(codec.encode(decoded), StandardCharsets.UTF_8);
      } catch (RuntimeException e) {
        problems.add(path + ": no longer decodes: " + e.getMessage());
        continue;
      }
      if (!again.equals(stored)) {
        problems.add(path + ": re-encodes differently; " + firstDifference(stored, again));
      }
    }
  }

  private static String firstDifference(String expected, String actual) {
    String[] a = expected.split("\n", -1);
    String[] b = actual.split("\n", -1);
    for (int i = 0; i < Math.max(a.length, b.length); i++) {
      String left = i < a.length ? a[i] : "(end)";
      String right = i < b.length ? b[i] : "(end)";
      if (!left.equals(right)) {
        return "line " + (i + 1) + ": fixture has " + left.strip() + ", now " + right.strip();
      }
    }
    return "the documents differ";
  }
}
