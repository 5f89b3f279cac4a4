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
import org.junit.jupiter.api.Test;

/**
 * Every code block of the guides that names its source ({@code <!-- from: path -->} above it)
 * appears in that source verbatim, so the guides cannot drift from compiled code.
 */
class DocsSnippetsTest {
  private static final Pattern SNIPPET =
      Pattern.compile("<!-- from: (\\S+) -->\\s*```java\\n(.*?)```", Pattern.DOTALL);

  @Test
  void guideSnippetsMatchTheirSources() throws IOException {
    Path root = Path.of("..").toAbsolutePath().normalize();
    List<String> checked = new ArrayList<>();
    for (String guide :
        List.of(
            "docs/conversion.md",
            "docs/unversioned.md",
            "docs/restmapper.md",
            "docs/testing.md",
            "docs/negotiation.md")) {
      String text = Files.readString(root.resolve(guide), StandardCharsets.UTF_8);
      Matcher matcher = SNIPPET.matcher(text);
      while (matcher.find()) {
        String source = Files.readString(root.resolve(matcher.group(1)), StandardCharsets.UTF_8);
        String snippet = matcher.group(2).strip();
        assertTrue(
            source.contains(snippet),
            guide + ": the block taken from " + matcher.group(1) + " no longer matches it");
        checked.add(matcher.group(1));
      }
    }
    assertTrue(checked.size() >= 12, "expected the guide's snippets, found " + checked);
  }
}
