package dev.machinery.apiserver.endpoints;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.unversioned.meta.v1.MetaV1;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code /version} reports the commit and the date of the build that made the library, recorded by
 * the build, and honest unknown values where the build could not know them.
 */
class VersionTest {
  private static final String RFC_3339_UTC = "\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z";

  @Test
  void versionReportsTheCommitAndDateOfThisBuild() throws Exception {
    ApiServer server = ApiServer.builder(MetaV1.addToScheme(Scheme.builder()).build()).build();
    ApiResponse response =
        server.handleAs(
            ApiServer.LOOPBACK_USER,
            new ApiRequest(
                "GET", "/version", Map.of(), Map.of(), new ByteArrayInputStream(new byte[0])));
    assertEquals(200, response.status());
    JsonNode version = new ObjectMapper().readTree(response.body());
    String commit = version.get("gitCommit").asText();
    if (git("rev-parse", "HEAD").isPresent()) {
      // Built and tested from a git work tree: the commit is one of its history, the one checked
      // out when the build ran (HEAD, or an ancestor where a commit was made since).
      assertTrue(commit.matches("[0-9a-f]{40}"), commit);
      assertTrue(
          git("merge-base", "--is-ancestor", commit, "HEAD").isPresent(),
          commit + " is HEAD or one of its ancestors");
      String tree = version.get("gitTreeState").asText();
      assertTrue(tree.equals("clean") || tree.equals("dirty"), tree);
    } else {
      assertEquals("unknown", commit);
      assertEquals("unknown", version.get("gitTreeState").asText());
    }
    String date = version.get("buildDate").asText();
    assertTrue(date.matches(RFC_3339_UTC), date);
    OffsetDateTime.parse(date);
    assertNotEquals(BuildInfo.UNKNOWN_DATE, date, "the Maven build recorded its date");
  }

  @Test
  void aBuildOutsideGitReportsUnknown() {
    Properties outside = new Properties();
    // What the build writes where git is not installed or the sources are not a work tree.
    outside.setProperty("gitCommit", "${build.git.commit}");
    outside.setProperty("gitTreeState", "unknown");
    outside.setProperty("buildDate", "2026-11-28T13:50:47Z");
    BuildInfo info = BuildInfo.of(outside);
    assertEquals("unknown", info.gitCommit());
    assertEquals("unknown", info.gitTreeState());
    assertEquals("2026-11-28T13:50:47Z", info.buildDate());
  }

  @Test
  void aMissingRecordReportsKubeApiserversUnsetDate() {
    BuildInfo info = BuildInfo.of(new Properties());
    assertEquals("unknown", info.gitCommit());
    assertEquals("unknown", info.gitTreeState());
    assertEquals("1970-01-01T00:00:00Z", info.buildDate());
  }

  @Test
  void theTreeStateIsCleanOrDirtyWithAKnownCommit() {
    Properties record = new Properties();
    record.setProperty("gitCommit", "0123456789abcdef0123456789abcdef01234567");
    record.setProperty("buildDate", "not a date");
    record.setProperty("gitTreeState", "clean");
    assertEquals("clean", BuildInfo.of(record).gitTreeState());
    record.setProperty("gitTreeState", "dirty");
    assertEquals("dirty", BuildInfo.of(record).gitTreeState());
    record.setProperty("gitTreeState", "${build.git.tree}");
    assertEquals("unknown", BuildInfo.of(record).gitTreeState());
    assertEquals("0123456789abcdef0123456789abcdef01234567", BuildInfo.of(record).gitCommit());
    assertEquals("1970-01-01T00:00:00Z", BuildInfo.of(record).buildDate());
  }

  /**
   * Runs git where the tests run: its output when it succeeds, empty when it fails or is absent.
   */
  private static Optional<String> git(String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of("git"));
    command.addAll(List.of(args));
    Process git;
    try {
      git =
          new ProcessBuilder(command)
              .directory(Path.of("").toAbsolutePath().toFile())
              .redirectError(ProcessBuilder.Redirect.DISCARD)
              .start();
    } catch (IOException e) {
      return Optional.empty(); // no git installed
    }
    String out = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    if (!git.waitFor(60, TimeUnit.SECONDS)) {
      git.destroyForcibly();
      throw new IOException(command + " did not end in 60 s");
    }
    return git.exitValue() == 0 ? Optional.of(out) : Optional.empty();
  }
}
