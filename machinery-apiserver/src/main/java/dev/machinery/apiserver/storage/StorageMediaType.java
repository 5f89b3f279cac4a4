package dev.machinery.apiserver.storage;

import java.util.Arrays;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * The media type a server writes its stored values in, as kube-apiserver's {@code
 * --storage-media-type}: {@link #JSON} (this library's default) or {@link #PROTOBUF} (kube's
 * default), in which each value of a kind that has a message in Kubernetes' {@code .proto} files
 * (the built-in kinds) is written in the {@code k8s\0} envelope of its storage version, while
 * custom resources and kinds without a message stay JSON, as kube-apiserver stores them. Whichever
 * is chosen, a server reads values in either, so a store written with one keeps reading after a
 * switch to the other.
 *
 * <p>Immutable and thread-safe.
 */
public enum StorageMediaType {
  /** {@code application/json}: every value as JSON. */
  JSON("application/json"),

  /**
   * {@code application/vnd.kubernetes.protobuf}: the values of kinds with a Kubernetes message in
   * protobuf, the others as JSON.
   */
  PROTOBUF("application/vnd.kubernetes.protobuf");

  private final String mediaType;

  StorageMediaType(String mediaType) {
    this.mediaType = mediaType;
  }

  /**
   * Returns the media type's name, as kube-apiserver's flag takes it.
   *
   * @return such as {@code application/json}
   */
  public String mediaType() {
    return mediaType;
  }

  /**
   * Reads a media type as {@code --storage-media-type} takes it.
   *
   * @param mediaType {@code application/json} or {@code application/vnd.kubernetes.protobuf}
   * @return the media type
   * @throws IllegalArgumentException naming the value and the allowed ones, as kube-apiserver words
   *     it ({@code --storage-media-type "text/plain" invalid, allowed values: application/json,
   *     application/vnd.kubernetes.protobuf})
   */
  public static StorageMediaType parse(String mediaType) {
    Objects.requireNonNull(mediaType, "mediaType");
    for (StorageMediaType type : values()) {
      if (type.mediaType.equals(mediaType)) {
        return type;
      }
    }
    throw new IllegalArgumentException(
        "--storage-media-type \""
            + mediaType
            + "\" invalid, allowed values: "
            + Arrays.stream(values())
                .map(StorageMediaType::mediaType)
                .sorted()
                .collect(Collectors.joining(", ")));
  }

  @Override
  public String toString() {
    return mediaType;
  }
}
