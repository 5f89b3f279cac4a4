/**
 * Runnable demonstrations of Machinery: {@link dev.machinery.examples.decode.DecodeManifest}
 * decodes a YAML manifest and prints what it found.
 */
module dev.machinery.examples {
  requires transitive dev.machinery.core;

  exports dev.machinery.examples.api;
  exports dev.machinery.examples.decode;

  opens dev.machinery.examples.api to
      com.fasterxml.jackson.databind;
}
