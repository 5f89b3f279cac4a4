package dev.machinery.examples;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Every code block of the README and the guides that names its source ({@code <!-- from: path -->}
 * above it) appears in that source, line for line (indentation aside, since a POM nests the blocks
 * deeper than the guide shows them), so the guides cannot drift from compiled code or from the
 * downstream build that uses the set-up snippets as a user would.
 */
class DocsSnippetsTest {
  private static final Pattern SNIPPET =
      Pattern.compile("<!-- from: (\\S+) -->\\s*```(java|xml)\\n(.*?)```", Pattern.DOTALL);
  private static final Pattern PROJECT_VERSION =
      Pattern.compile("<artifactId>machinery-parent</artifactId>\\s*<version>([^<]+)</version>");

  @Test
  void guideSnippetsMatchTheirSources() throws IOException {
    Path root = Path.of("..").toAbsolutePath().normalize();
    Matcher version =
        PROJECT_VERSION.matcher(Files.readString(root.resolve("pom.xml"), StandardCharsets.UTF_8));
    assertTrue(version.find(), "the root pom names no version");
    List<String> checked = new ArrayList<>();
    for (String guide :
        List.of(
            "README.md",
            "docs/setup.md",
            "docs/conversion.md",
            "docs/unversioned.md",
            "docs/restmapper.md",
            "docs/testing.md",
            "docs/negotiation.md",
            "docs/values.md",
            "docs/selectors.md",
            "docs/errors.md",
            "docs/patches.md",
            "docs/fieldpath.md",
            "docs/watch.md",
            "docs/protobuf.md",
            "docs/apiserver.md",
            "docs/storage-etcd.md",
            "docs/security.md",
            "docs/customresources.md",
            "docs/builtins.md",
            "docs/controllers-runtime.md")) {
      String text = Files.readString(root.resolve(guide), StandardCharsets.UTF_8);
      Matcher matcher = SNIPPET.matcher(text);
      while (matcher.find()) {
        String source =
            Files.readString(root.resolve(matcher.group(1)), StandardCharsets.UTF_8)
                // The downstream build's POM takes the version from the build that runs it.
                .replace("@project.version@", version.group(1));
        assertTrue(
            lines(source).contains(lines(matcher.group(3))),
            guide + ": the block taken from " + matcher.group(1) + " no longer matches it");
        checked.add(guide + " <- " + matcher.group(1));
      }
    }
    assertTrue(checked.size() >= 38, "expected the guides' snippets, found " + checked);
  }

  /** The text's non-blank lines, stripped, one per line. */
  private static String lines(String text) {
    return "\n"
        + text.lines()
            .map(String::strip)
            .filter(l -> !l.isEmpty())
            .collect(Collectors.joining("\n"))
        + "\n";
  }
}
