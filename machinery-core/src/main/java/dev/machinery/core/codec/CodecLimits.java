package dev.machinery.core.codec;

/**
 * Bounds on what a decoder accepts, so that a hostile document ends in a {@link
 * LimitExceededException} instead of a hang, a stack overflow or an exhausted heap.
 *
 * <p>The limits are set on the library's own Jackson factories only, never JVM-wide. The defaults
 * ({@link #DEFAULTS}) suit an API server: Kubernetes' own request bodies are at most 3 MiB. YAML
 * gets a lower size limit than JSON because reading it costs far more per byte, and far more again
 * for one long scalar. Immutable and safe to share between threads.
 *
 * @param maxJsonBytes the largest JSON input, in bytes
 * @param maxYamlBytes the largest YAML input (the whole stream), in bytes
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
    int maxNestingDepth,
    int maxStringLength,
    int maxNumberLength,
    int maxNameLength,
    long maxTokenCount,
    int maxYamlAliasNodes) {

  /**
   * The defaults: JSON 3 MiB, YAML 256 KiB, depth 100, strings 1 MiB, numbers 100 characters, names
   * 4096 characters, 1,000,000 tokens, 10,000 alias nodes. YAML's limit is low because one long
   * YAML scalar takes SnakeYAML time that grows faster than its length (about 50 ms for 256 KiB,
   * over a second for 1 MiB, measured on the project's 2-core machines); raise it for trusted
   * input.
   */
  public static final CodecLimits DEFAULTS =
      new CodecLimits(3 * 1024 * 1024, 256 * 1024, 100, 1024 * 1024, 100, 4096, 1_000_000, 10_000);

  /**
   * Checks that every limit is positive.
   *
   * @param maxJsonBytes see the record description
   * @param maxYamlBytes see the record description
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
    positive("maxNestingDepth", maxNestingDepth);
    positive("maxStringLength", maxStringLength);
    positive("maxNumberLength", maxNumberLength);
    positive("maxNameLength", maxNameLength);
    positive("maxTokenCount", maxTokenCount);
    positive("maxYamlAliasNodes", maxYamlAliasNodes);
  }

  /**
   * Returns a copy with another JSON size limit.
   *
   * @param value bytes
   * @return the new limits
   */
  public CodecLimits withMaxJsonBytes(int value) {
    return new CodecLimits(
        value,
        maxYamlBytes,
        maxNestingDepth,
        maxStringLength,
        maxNumberLength,
        maxNameLength,
        maxTokenCount,
        maxYamlAliasNodes);
  }

  /**
   * Returns a copy with another YAML size limit.
   *
   * @param value bytes
   * @return the new limits
   */
  public CodecLimits withMaxYamlBytes(int value) {
    return new CodecLimits(
        maxJsonBytes,
        value,
        maxNestingDepth,
        maxStringLength,
        maxNumberLength,
        maxNameLength,
        maxTokenCount,
        maxYamlAliasNodes);
  }

  /**
   * Returns a copy with another nesting limit.
   *
   * @param value levels
   * @return the new limits
   */
  public CodecLimits withMaxNestingDepth(int value) {
    return new CodecLimits(
        maxJsonBytes,
        maxYamlBytes,
        value,
        maxStringLength,
        maxNumberLength,
        maxNameLength,
        maxTokenCount,
        maxYamlAliasNodes);
  }

  /**
   * Returns a copy with another string length limit.
   *
   * @param value characters
   * @return the new limits
   */
  public CodecLimits withMaxStringLength(int value) {
    return new CodecLimits(
        maxJsonBytes,
        maxYamlBytes,
        maxNestingDepth,
        value,
        maxNumberLength,
        maxNameLength,
        maxTokenCount,
        maxYamlAliasNodes);
  }

  /**
   * Returns a copy with another number length limit.
   *
   * @param value characters
   * @return the new limits
   */
  public CodecLimits withMaxNumberLength(int value) {
    return new CodecLimits(
        maxJsonBytes,
        maxYamlBytes,
        maxNestingDepth,
        maxStringLength,
        value,
        maxNameLength,
        maxTokenCount,
        maxYamlAliasNodes);
  }

  /**
   * Returns a copy with another field name length limit.
   *
   * @param value characters
   * @return the new limits
   */
  public CodecLimits withMaxNameLength(int value) {
    return new CodecLimits(
        maxJsonBytes,
        maxYamlBytes,
        maxNestingDepth,
        maxStringLength,
        maxNumberLength,
        value,
        maxTokenCount,
        maxYamlAliasNodes);
  }

  /**
   * Returns a copy with another token count limit.
   *
   * @param value tokens
   * @return the new limits
   */
  public CodecLimits withMaxTokenCount(long value) {
    return new CodecLimits(
        maxJsonBytes,
        maxYamlBytes,
        maxNestingDepth,
        maxStringLength,
        maxNumberLength,
        maxNameLength,
        value,
        maxYamlAliasNodes);
  }

  /**
   * Returns a copy with another YAML alias expansion limit.
   *
   * @param value nodes
   * @return the new limits
   */
  public CodecLimits withMaxYamlAliasNodes(int value) {
    return new CodecLimits(
        maxJsonBytes,
        maxYamlBytes,
        maxNestingDepth,
        maxStringLength,
        maxNumberLength,
        maxNameLength,
        maxTokenCount,
        value);
  }

  private static void positive(String name, long value) {
    if (value <= 0) {
      throw new IllegalArgumentException(name + " must be positive, was " + value);
    }
  }
}
