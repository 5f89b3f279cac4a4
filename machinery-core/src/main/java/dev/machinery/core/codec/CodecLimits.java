package dev.machinery.core.codec;

import com.fasterxml.jackson.core.StreamReadConstraints;

/**
 * Bounds on what a decoder accepts, so that a hostile document ends in a {@link
 * LimitExceededException} instead of a hang, a stack overflow or an exhausted heap.
 *
 * <p>The limits are set on the library's own Jackson factories only, never JVM-wide. The defaults
 * ({@link #DEFAULTS}) suit an API server and the documents real clients send: Kubernetes' own
 * request bodies are at most 3 MiB, and {@code kubectl apply -f} sends bundles of hundreds of
 * documents in one YAML stream. A single YAML document gets a lower limit than the stream, because
 * reading one long YAML scalar costs far more per byte. Immutable and safe to share between
 * threads.
 *
 * @param maxJsonBytes the largest JSON input, in bytes
 * @param maxYamlBytes the largest YAML input (the whole stream of documents), in bytes
 * @param maxYamlDocumentBytes the largest single document of a YAML stream, in UTF-8 bytes,
 *     measured from one document marker ({@code ---} or {@code ...} at the start of a line) to the
 *     next and checked before the stream is parsed
 * @param maxNestingDepth the deepest nesting of objects and arrays
 * @param maxStringLength the longest string value, in characters
 * @param maxNumberLength the longest number literal, in characters
 * @param maxNameLength the longest field name, in characters
 * @param maxTokenCount the most tokens in one document
 * @param maxYamlAliasNodes the most nodes that YAML aliases and merge keys may add to a stream by
 *     repeating anchored content (the billion-laughs guard)
 */
public record CodecLimits(
    int maxJsonBytes,
    int maxYamlBytes,
    int maxYamlDocumentBytes,
    int maxNestingDepth,
    int maxStringLength,
    int maxNumberLength,
    int maxNameLength,
    long maxTokenCount,
    int maxYamlAliasNodes) {

  /**
   * The defaults: JSON 3 MiB; YAML 3 MiB a stream and 512 KiB a document; depth 1,000; strings 1
   * MiB; numbers 1,000 characters (as Jackson's own default: a 300-digit {@code 1e299} is a valid
   * float64); names 4096 characters; 1,000,000 tokens; 10,000 alias nodes. The document limit is
   * low because one long YAML scalar takes SnakeYAML time that grows faster than its length (about
   * 50 ms for 256 KiB, over a second for 1 MiB, measured on the project's 2-core machines); raise
   * it for trusted input. At depth 1,000 a decode and an encode need well under the JVM's default 1
   * MiB thread stack (see {@code docs/codecs.md}).
   */
  public static final CodecLimits DEFAULTS =
      new CodecLimits(
          3 * 1024 * 1024,
          3 * 1024 * 1024,
          512 * 1024,
          1000,
          1024 * 1024,
          1000,
          4096,
          1_000_000,
          10_000);

  /**
   * Checks that every limit is positive.
   *
   * @param maxJsonBytes see the record description
   * @param maxYamlBytes see the record description
   * @param maxYamlDocumentBytes see the record description
   * @param maxNestingDepth see the record description
   * @param maxStringLength see the record description
   * @param maxNumberLength see the record description
   * @param maxNameLength see the record description
   * @param maxTokenCount see the record description
   * @param maxYamlAliasNodes see the record description
   * @throws IllegalArgumentException if a limit is zero or negative
   */
  public CodecLimits {
    positive("maxJsonBytes", maxJsonBytes);
    positive("maxYamlBytes", maxYamlBytes);
    positive("maxYamlDocumentBytes", maxYamlDocumentBytes);
    positive("maxNestingDepth", maxNestingDepth);
    positive("maxStringLength", maxStringLength);
    positive("maxNumberLength", maxNumberLength);
    positive("maxNameLength", maxNameLength);
    positive("maxTokenCount", maxTokenCount);
    positive("maxYamlAliasNodes", maxYamlAliasNodes);
  }

  /**
   * Returns a copy with another {@code maxJsonBytes}.
   *
   * @param value bytes
   * @return the new limits
   */
  public CodecLimits withMaxJsonBytes(int value) {
    return new CodecLimits(
        value,
        maxYamlBytes,
        maxYamlDocumentBytes,
        maxNestingDepth,
        maxStringLength,
        maxNumberLength,
        maxNameLength,
        maxTokenCount,
        maxYamlAliasNodes);
  }

  /**
   * Returns a copy with another {@code maxYamlBytes}.
   *
   * @param value bytes
   * @return the new limits
   */
  public CodecLimits withMaxYamlBytes(int value) {
    return new CodecLimits(
        maxJsonBytes,
        value,
        maxYamlDocumentBytes,
        maxNestingDepth,
        maxStringLength,
        maxNumberLength,
        maxNameLength,
        maxTokenCount,
        maxYamlAliasNodes);
  }

  /**
   * Returns a copy with another {@code maxYamlDocumentBytes}.
   *
   * @param value bytes
   * @return the new limits
   */
  public CodecLimits withMaxYamlDocumentBytes(int value) {
    return new CodecLimits(
        maxJsonBytes,
        maxYamlBytes,
        value,
        maxNestingDepth,
        maxStringLength,
        maxNumberLength,
        maxNameLength,
        maxTokenCount,
        maxYamlAliasNodes);
  }

  /**
   * Returns a copy with another {@code maxNestingDepth}.
   *
   * @param value levels
   * @return the new limits
   */
  public CodecLimits withMaxNestingDepth(int value) {
    return new CodecLimits(
        maxJsonBytes,
        maxYamlBytes,
        maxYamlDocumentBytes,
        value,
        maxStringLength,
        maxNumberLength,
        maxNameLength,
        maxTokenCount,
        maxYamlAliasNodes);
  }

  /**
   * Returns a copy with another {@code maxStringLength}.
   *
   * @param value characters
   * @return the new limits
   */
  public CodecLimits withMaxStringLength(int value) {
    return new CodecLimits(
        maxJsonBytes,
        maxYamlBytes,
        maxYamlDocumentBytes,
        maxNestingDepth,
        value,
        maxNumberLength,
        maxNameLength,
        maxTokenCount,
        maxYamlAliasNodes);
  }

  /**
   * Returns a copy with another {@code maxNumberLength}.
   *
   * @param value characters
   * @return the new limits
   */
  public CodecLimits withMaxNumberLength(int value) {
    return new CodecLimits(
        maxJsonBytes,
        maxYamlBytes,
        maxYamlDocumentBytes,
        maxNestingDepth,
        maxStringLength,
        value,
        maxNameLength,
        maxTokenCount,
        maxYamlAliasNodes);
  }

  /**
   * Returns a copy with another {@code maxNameLength}.
   *
   * @param value characters
   * @return the new limits
   */
  public CodecLimits withMaxNameLength(int value) {
    return new CodecLimits(
        maxJsonBytes,
        maxYamlBytes,
        maxYamlDocumentBytes,
        maxNestingDepth,
        maxStringLength,
        maxNumberLength,
        value,
        maxTokenCount,
        maxYamlAliasNodes);
  }

  /**
   * Returns a copy with another {@code maxTokenCount}.
   *
   * @param value tokens
   * @return the new limits
   */
  public CodecLimits withMaxTokenCount(long value) {
    return new CodecLimits(
        maxJsonBytes,
        maxYamlBytes,
        maxYamlDocumentBytes,
        maxNestingDepth,
        maxStringLength,
        maxNumberLength,
        maxNameLength,
        value,
        maxYamlAliasNodes);
  }

  /**
   * Returns a copy with another {@code maxYamlAliasNodes}.
   *
   * @param value nodes
   * @return the new limits
   */
  public CodecLimits withMaxYamlAliasNodes(int value) {
    return new CodecLimits(
        maxJsonBytes,
        maxYamlBytes,
        maxYamlDocumentBytes,
        maxNestingDepth,
        maxStringLength,
        maxNumberLength,
        maxNameLength,
        maxTokenCount,
        value);
  }

  /**
   * Jackson's read limits for one JSON document by these limits: its bytes ({@code maxJsonBytes}),
   * nesting depth, string, number and name lengths, and tokens. A reader of a stream of documents
   * (a list read item by item, a watch) lifts the document's and the tokens' limits with {@link
   * StreamReadConstraints#rebuild()} and bounds each value itself.
   *
   * @return the constraints
   */
  public StreamReadConstraints jsonReadConstraints() {
    return StreamReadConstraints.builder()
        .maxDocumentLength(maxJsonBytes)
        .maxNestingDepth(maxNestingDepth)
        .maxStringLength(maxStringLength)
        .maxNumberLength(maxNumberLength)
        .maxNameLength(maxNameLength)
        .maxTokenCount(maxTokenCount)
        .build();
  }

  private static void positive(String name, long value) {
    if (value <= 0) {
      throw new IllegalArgumentException(name + " must be positive, was " + value);
    }
  }
}
