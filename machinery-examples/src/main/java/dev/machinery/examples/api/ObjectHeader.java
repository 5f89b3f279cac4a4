package dev.machinery.examples.api;

import dev.machinery.core.runtime.ApiObject;
import java.util.Objects;

/**
 * The fields every example kind shares: {@code apiVersion}, {@code kind} and a name. Mutable; not
 * thread-safe.
 */
public abstract class ObjectHeader implements ApiObject {
  private String apiVersion;
  private String kind;
  private Metadata metadata;

  /** Creates an object with no fields set. */
  protected ObjectHeader() {}

  @Override
  public String getApiVersion() {
    return apiVersion;
  }

  @Override
  public void setApiVersion(String apiVersion) {
    this.apiVersion = apiVersion;
  }

  @Override
  public String getKind() {
    return kind;
  }

  @Override
  public void setKind(String kind) {
    this.kind = kind;
  }

  /**
   * Returns the object's metadata.
   *
   * @return the metadata, or {@code null}
   */
  public Metadata getMetadata() {
    return metadata;
  }

  /**
   * Sets the object's metadata.
   *
   * @param metadata the metadata
   */
  public void setMetadata(Metadata metadata) {
    this.metadata = metadata;
  }

  /**
   * The name and namespace of an object.
   *
   * @param name the name
   * @param namespace the namespace, or {@code null} for cluster-wide objects
   */
  public record Metadata(String name, String namespace) {
    /**
     * Checks the name.
     *
     * @param name the name
     * @param namespace the namespace
     */
    public Metadata {
      Objects.requireNonNull(name, "name");
    }
  }
}
