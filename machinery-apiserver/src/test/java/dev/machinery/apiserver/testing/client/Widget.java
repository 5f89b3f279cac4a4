package dev.machinery.apiserver.testing.client;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.machinery.conversion.ProtoField;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import dev.machinery.unversioned.meta.v1.TypeMeta;
import java.util.List;

/**
 * The client tests' typed kind, {@code test.machinery.dev/v1 Widget}: a spec (replicas, color,
 * tags), a status subresource and a scale subresource, with protobuf field numbers.
 */
@JsonPropertyOrder({"metadata", "spec", "status"})
public final class Widget extends TypeMeta {
  private ObjectMeta metadata;
  private Spec spec;
  private Status status;

  /** Creates an empty Widget. */
  public Widget() {}

  /**
   * A widget of a name with replicas and a color.
   *
   * @param name the name
   * @param replicas the replicas
   * @param color the color
   * @return the widget
   */
  public static Widget of(String name, int replicas, String color) {
    Widget widget = new Widget();
    widget.setApiVersion("test.machinery.dev/v1");
    widget.setKind("Widget");
    ObjectMeta meta = new ObjectMeta();
    meta.setName(name);
    widget.setMetadata(meta);
    Spec spec = new Spec();
    spec.setReplicas(replicas);
    spec.setColor(color);
    widget.setSpec(spec);
    return widget;
  }

  /**
   * Returns the metadata.
   *
   * @return the metadata
   */
  @ProtoField(1)
  public ObjectMeta getMetadata() {
    return metadata;
  }

  /**
   * Sets the metadata.
   *
   * @param metadata the metadata
   */
  public void setMetadata(ObjectMeta metadata) {
    this.metadata = metadata;
  }

  /**
   * Returns the spec.
   *
   * @return the spec
   */
  @ProtoField(2)
  public Spec getSpec() {
    return spec;
  }

  /**
   * Sets the spec.
   *
   * @param spec the spec
   */
  public void setSpec(Spec spec) {
    this.spec = spec;
  }

  /**
   * Returns the status.
   *
   * @return the status
   */
  @ProtoField(3)
  public Status getStatus() {
    return status;
  }

  /**
   * Sets the status.
   *
   * @param status the status
   */
  public void setStatus(Status status) {
    this.status = status;
  }

  /** What the widget should be. */
  @JsonPropertyOrder({"replicas", "color", "tags"})
  public static final class Spec {
    private Integer replicas;
    private String color;
    private List<String> tags;

    /** Creates an empty spec. */
    public Spec() {}

    /**
     * Returns the replicas.
     *
     * @return the replicas
     */
    @ProtoField(value = 1, optional = true)
    public Integer getReplicas() {
      return replicas;
    }

    /**
     * Sets the replicas.
     *
     * @param replicas the replicas
     */
    public void setReplicas(Integer replicas) {
      this.replicas = replicas;
    }

    /**
     * Returns the color.
     *
     * @return the color
     */
    @ProtoField(2)
    public String getColor() {
      return color;
    }

    /**
     * Sets the color.
     *
     * @param color the color
     */
    public void setColor(String color) {
      this.color = color;
    }

    /**
     * Returns the tags.
     *
     * @return the tags
     */
    @ProtoField(3)
    public List<String> getTags() {
      return tags;
    }

    /**
     * Sets the tags.
     *
     * @param tags the tags
     */
    public void setTags(List<String> tags) {
      this.tags = tags;
    }
  }

  /** What the widget is. */
  @JsonPropertyOrder({"readyReplicas", "phase"})
  public static final class Status {
    private Integer readyReplicas;
    private String phase;

    /** Creates an empty status. */
    public Status() {}

    /**
     * Returns the ready replicas.
     *
     * @return the ready replicas
     */
    @ProtoField(value = 1, optional = true)
    public Integer getReadyReplicas() {
      return readyReplicas;
    }

    /**
     * Sets the ready replicas.
     *
     * @param readyReplicas the ready replicas
     */
    public void setReadyReplicas(Integer readyReplicas) {
      this.readyReplicas = readyReplicas;
    }

    /**
     * Returns the phase.
     *
     * @return the phase
     */
    @ProtoField(2)
    public String getPhase() {
      return phase;
    }

    /**
     * Sets the phase.
     *
     * @param phase the phase
     */
    public void setPhase(String phase) {
      this.phase = phase;
    }
  }
}
