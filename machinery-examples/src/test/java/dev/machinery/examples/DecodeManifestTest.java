package dev.machinery.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.machinery.examples.decode.DecodeManifest;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class DecodeManifestTest {
  @Test
  void printsWhatTheBundledManifestHolds() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DecodeManifest.run(
        DecodeManifest.bundledManifestText().getBytes(StandardCharsets.UTF_8),
        new PrintStream(bytes, true, StandardCharsets.UTF_8));
    assertEquals(
        String.join(
            "\n",
            "Found 3 objects:",
            "- example.dev/v1, Kind=Widget: widget gear, size 3, colour 0x1F, parts [axle, cog, spring],"
                + " spares [axle, cog, spring]",
            "- example.dev/v1, Kind=Widget: widget spare, size 1, colour red, parts [cog], spares null",
            "    warning: unknown field \"spec.colur\"",
            "- /v1, Kind=ConfigMap: config map settings with keys [mode, retries]",
            "",
            "The first object as JSON:",
            "{",
            "  \"apiVersion\": \"example.dev/v1\",",
            "  \"kind\": \"Widget\",",
            "  \"metadata\": {",
            "    \"name\": \"gear\",",
            "    \"namespace\": \"workshop\"",
            "  },",
            "  \"spec\": {",
            "    \"size\": 3,",
            "    \"colour\": \"0x1F\",",
            "    \"parts\": [",
            "      \"axle\",",
            "      \"cog\",",
            "      \"spring\"",
            "    ],",
            "    \"spares\": [",
            "      \"axle\",",
            "      \"cog\",",
            "      \"spring\"",
            "    ],",
            "    \"labels\": {",
            "      \"tier\": \"1.10\"",
            "    }",
            "  }",
            "}",
            "",
            "Strict validation of the same manifest:",
            "  document 2 of 3: strict decoding error: unknown field \"spec.colur\"",
            ""),
        bytes.toString(StandardCharsets.UTF_8));
  }

  @Test
  void reportsAManifestThatCannotBeDecoded() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DecodeManifest.run(
        "kind: Widget\n".getBytes(StandardCharsets.UTF_8),
        new PrintStream(bytes, true, StandardCharsets.UTF_8));
    assertEquals(
        "The manifest could not be decoded: the document of kind \"Widget\" has no apiVersion;"
            + " expected \"group/version\", or \"v1\" for the core group\n",
        bytes.toString(StandardCharsets.UTF_8));
  }
}
