package dev.machinery.core.patch;

import java.util.Optional;

/**
 * The patch formats of a PATCH request, by the Content-Type that names them ({@code
 * types.PatchType}).
 */
public enum PatchType {
  /** RFC 6902 JSON patch: {@code application/json-patch+json}. */
  JSON_PATCH("application/json-patch+json"),
  /** RFC 7386 JSON merge patch: {@code application/merge-patch+json}. */
  MERGE_PATCH("application/merge-patch+json"),
  /** Kubernetes' strategic merge patch: {@code application/strategic-merge-patch+json}. */
  STRATEGIC_MERGE_PATCH("application/strategic-merge-patch+json"),
  /** Server-side apply: {@code application/apply-patch+yaml}. */
  APPLY_PATCH("application/apply-patch+yaml");

  private final String contentType;

  PatchType(String contentType) {
    this.contentType = contentType;
  }

  /**
   * Returns the Content-Type that names the format.
   *
   * @return the media type
   */
  public String contentType() {
    return contentType;
  }

  /**
   * Finds the format a Content-Type names (parameters ignored).
   *
   * @param contentType the header's value
   * @return the format, or empty
   */
  public static Optional<PatchType> fromContentType(String contentType) {
    String bare = contentType.split(";", 2)[0].strip();
    for (PatchType type : values()) {
      if (type.contentType.equalsIgnoreCase(bare)) {
        return Optional.of(type);
      }
    }
    return Optional.empty();
  }
}
