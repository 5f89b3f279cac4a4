package dev.machinery.apiserver.negotiation;

import dev.machinery.core.codec.Codec;
import dev.machinery.core.codec.CodecFactory;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Chooses the decoder of a request body from its {@code Content-Type} header, as kube-apiserver's
 * {@code NegotiateInputSerializer} does: a missing header means the first media type the server
 * reads; a header that names another is a {@code 415} ({@link UnsupportedMediaTypeException}).
 * Stricter than Kubernetes where it costs a client nothing: a charset other than UTF-8, several
 * media types in one header, and a wildcard are refused too, since the body could not be read as
 * the client meant.
 *
 * <pre>{@code
 * ContentTypeNegotiator bodies = ContentTypeNegotiator.of(codecs); // JSON, then YAML
 * Codec decoder = bodies.negotiate(request.header("Content-Type"));
 * }</pre>
 *
 * <p>Immutable and safe to share between threads.
 */
public final class ContentTypeNegotiator {
  private final Map<String, Codec> decoders;

  private ContentTypeNegotiator(Map<String, Codec> decoders) {
    this.decoders = decoders;
  }

  /**
   * Returns a negotiator that reads {@code application/json} (the default) and {@code
   * application/yaml} with a factory's codecs.
   *
   * @param codecs the codecs
   * @return the negotiator
   */
  public static ContentTypeNegotiator of(CodecFactory codecs) {
    return builder()
        .accept("application/json", codecs.json())
        .accept("application/yaml", codecs.yaml())
        .build();
  }

  /**
   * Returns an empty builder.
   *
   * @return the builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Returns the media types read, the default first.
   *
   * @return the media types
   */
  public List<String> accepted() {
    return List.copyOf(decoders.keySet());
  }

  /**
   * Chooses the decoder of a body.
   *
   * @param contentType the Content-Type header, or {@code null} when there is none
   * @return the codec that reads it
   * @throws UnsupportedMediaTypeException if the header is malformed, names several media types, a
   *     wildcard, a charset other than UTF-8, or a media type not read here
   * @throws IllegalStateException if the media type was accepted without a codec
   */
  public Codec negotiate(String contentType) {
    String chosen = choose(contentType);
    Codec codec = decoders.get(chosen);
    if (codec == null) {
      throw new IllegalStateException(
          chosen + " was accepted without a codec: the caller decodes it (use choose)");
    }
    return codec;
  }

  /**
   * Chooses the media type of a body among those accepted, by the same rules as {@link #negotiate},
   * for callers that decode some media types themselves (a server reading Kubernetes' protobuf,
   * say).
   *
   * @param contentType the Content-Type header, or {@code null} when there is none
   * @return the accepted media type, lower case and without parameters, such as {@code
   *     application/json}
   * @throws UnsupportedMediaTypeException if the header is malformed, names several media types, a
   *     wildcard, a charset other than UTF-8, or a media type not read here
   */
  public String choose(String contentType) {
    if (contentType == null || contentType.isBlank()) {
      return decoders.keySet().iterator().next();
    }
    MediaType type;
    try {
      type = MediaType.parse(contentType);
    } catch (MalformedMediaTypeException e) {
      throw unsupported(contentType, e.getMessage());
    }
    String name = (type.type() + "/" + type.subtype()).toLowerCase(Locale.ROOT);
    if (type.type().equals("*") || type.subtype().equals("*")) {
      throw unsupported(contentType, "a body has one media type, not the wildcard " + name);
    }
    String charset = type.parameter("charset");
    if (charset != null && !charset.equalsIgnoreCase("utf-8")) {
      throw unsupported(
          contentType, "charset \"" + charset + "\" is not read; request bodies are UTF-8");
    }
    if (!decoders.containsKey(name)) {
      throw unsupported(contentType, "found \"" + name + "\"");
    }
    return name;
  }

  private UnsupportedMediaTypeException unsupported(String contentType, String detail) {
    return new UnsupportedMediaTypeException(contentType, accepted(), detail);
  }

  /** Collects the media types a server reads. Not thread-safe. */
  public static final class Builder {
    private final Map<String, Codec> decoders = new LinkedHashMap<>();

    private Builder() {}

    /**
     * Reads a media type with a codec; the first one added is the default.
     *
     * @param mediaType a media type without parameters, such as {@code application/json}
     * @param codec the codec that reads it
     * @return this builder
     * @throws IllegalArgumentException if the media type is malformed, has parameters or a
     *     wildcard, or was added already
     */
    public Builder accept(String mediaType, Codec codec) {
      return add(mediaType, Objects.requireNonNull(codec, "codec"));
    }

    /**
     * Reads a media type that the caller decodes itself, such as Kubernetes' protobuf: {@link
     * #choose} returns it, {@link #negotiate} refuses it with an {@link IllegalStateException}.
     *
     * @param mediaType a media type without parameters
     * @return this builder
     * @throws IllegalArgumentException if the media type is malformed, has parameters or a
     *     wildcard, or was added already
     */
    public Builder accept(String mediaType) {
      return add(mediaType, null);
    }

    private Builder add(String mediaType, Codec codec) {
      MediaType type = MediaType.parse(mediaType);
      if (!type.parameters().isEmpty() || type.type().equals("*") || type.subtype().equals("*")) {
        throw new IllegalArgumentException(
            "accept a plain media type such as application/json, not \"" + mediaType + "\"");
      }
      String name = (type.type() + "/" + type.subtype()).toLowerCase(Locale.ROOT);
      if (decoders.containsKey(name)) {
        throw new IllegalArgumentException(name + " is accepted already");
      }
      decoders.put(name, codec);
      return this;
    }

    /**
     * Builds the negotiator.
     *
     * @return the negotiator
     * @throws IllegalStateException if no media type was added
     */
    public ContentTypeNegotiator build() {
      if (decoders.isEmpty()) {
        throw new IllegalStateException("a content type negotiator reads at least one media type");
      }
      return new ContentTypeNegotiator(new LinkedHashMap<>(decoders));
    }
  }
}
