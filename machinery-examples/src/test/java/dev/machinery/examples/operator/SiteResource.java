package dev.machinery.examples.operator;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * The sample server's {@code sites.example.dev/v1} Site as an operator author writes it: a fabric8
 * {@code CustomResource} of the same group, version and kind, with its own spec and status classes.
 */
@Group("sites.example.dev")
@Version("v1")
@Kind("Site")
@Plural("sites")
public class SiteResource extends CustomResource<SiteResource.Spec, SiteResource.Status>
    implements Namespaced {
  private static final long serialVersionUID = 1L;

  /** What a Site asks for. */
  public static class Spec {
    private String image;
    private Integer replicas;
    private String content;

    /**
     * Returns the image.
     *
     * @return the image
     */
    public String getImage() {
      return image;
    }

    /**
     * Sets the image.
     *
     * @param image the image
     */
    public void setImage(String image) {
      this.image = image;
    }

    /**
     * Returns the replicas.
     *
     * @return the replicas
     */
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
     * Returns the content.
     *
     * @return the content
     */
    public String getContent() {
      return content;
    }

    /**
     * Sets the content.
     *
     * @param content the content
     */
    public void setContent(String content) {
      this.content = content;
    }
  }

  /** What the controller last did. */
  public static class Status {
    private Long observedGeneration;
    private String message;

    /**
     * Returns the generation acted on.
     *
     * @return the generation
     */
    public Long getObservedGeneration() {
      return observedGeneration;
    }

    /**
     * Sets the generation acted on.
     *
     * @param observedGeneration the generation
     */
    public void setObservedGeneration(Long observedGeneration) {
      this.observedGeneration = observedGeneration;
    }

    /**
     * Returns the message.
     *
     * @return the message
     */
    public String getMessage() {
      return message;
    }

    /**
     * Sets the message.
     *
     * @param message the message
     */
    public void setMessage(String message) {
      this.message = message;
    }
  }
}
