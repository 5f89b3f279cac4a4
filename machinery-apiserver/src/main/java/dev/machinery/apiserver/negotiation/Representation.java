package dev.machinery.apiserver.negotiation;

import java.util.Objects;

/**
 * The representation negotiation chose: the serializer's media type, the transform, and the
 * formatting options, with the Content-Type the response states. Immutable.
 *
 * @param contentType the response's Content-Type, parameters included, such as {@code
 *     application/json;as=Table;g=meta.k8s.io;v=v1}
 * @param format {@code json}, {@code yaml}, {@code csv} or {@code protobuf}
 * @param transform what the object becomes
 * @param group the group of the response ({@code g})
 * @param version the version of the response ({@code v})
 * @param pretty whether JSON is indented
 * @param export whether fields set by the server are cleared
 * @param statusVersion the {@code meta.k8s.io} version for a Status response ({@code sv}), or
 *     {@code null}
 */
public record Representation(
    MediaType contentType,
    String format,
    Transform transform,
    String group,
    String version,
    boolean pretty,
    boolean export,
    String statusVersion) {
  /**
   * Checks for nulls.
   *
   * @param contentType see the record description
   * @param format see the record description
   * @param transform see the record description
   * @param group see the record description
   * @param version see the record description
   * @param pretty see the record description
   * @param export see the record description
   * @param statusVersion see the record description
   */
  public Representation {
    Objects.requireNonNull(contentType, "contentType");
    Objects.requireNonNull(format, "format");
    Objects.requireNonNull(transform, "transform");
    Objects.requireNonNull(group, "group");
    Objects.requireNonNull(version, "version");
  }

  /** What the served object becomes. Immutable. */
  public enum Transform {
    /** The object itself, possibly in another version of its group. */
    NONE,
    /** A {@code Table} ({@code as=Table}). */
    TABLE,
    /** A {@code PartialObjectMetadata} or its list ({@code as=PartialObjectMetadata}). */
    PARTIAL_OBJECT_METADATA,
    /** The object's {@code Scale} ({@code as=Scale}). */
    SCALE
  }
}
