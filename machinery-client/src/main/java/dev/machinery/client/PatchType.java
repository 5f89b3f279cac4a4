package dev.machinery.client;

/**
 * The kinds of patch a server accepts, by their content types ({@code types.PatchType}). Immutable
 * and thread-safe.
 */
public enum PatchType {
  /** RFC 6902 JSON patch: a list of operations. */
  JSON("application/json-patch+json"),
  /** RFC 7386 JSON merge patch. */
  MERGE("application/merge-patch+json"),
  /** Kubernetes' strategic merge patch (lists merged by their keys). */
  STRATEGIC_MERGE("application/strategic-merge-patch+json"),
  /** Server-side apply: the fields the manager owns, as YAML or JSON. */
  APPLY("application/apply-patch+yaml");

  private final String contentType;

  PatchType(String contentType) {
    this.contentType = contentType;
  }

  /**
   * Returns the content type the patch is sent with.
   *
   * @return such as {@code application/merge-patch+json}
   */
  public String contentType() {
    return contentType;
  }
}
