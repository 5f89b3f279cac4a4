package dev.machinery.examples.webpage;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.core.schema.GroupVersionResource;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import dev.machinery.unversioned.meta.v1.TypeMeta;

/**
 * A {@code web.example.dev/v1} WebPage: namespaced, with content in its spec and a status written
 * through its {@code status} subresource. Its CustomResourceDefinition is {@link #CRD_RESOURCE}, a
 * resource of this package.
 *
 * <p>Mutable; confine an instance to one thread or publish it safely after its last change (the
 * controller never changes an object it read from its cache).
 */
@JsonPropertyOrder({"metadata", "spec", "status"})
public final class WebPage extends TypeMeta {
  /** The group. */
  public static final String GROUP = "web.example.dev";

  /** The kind. */
  public static final String KIND = "WebPage";

  /** The group version {@code web.example.dev/v1}. */
  public static final GroupVersion V1 = GroupVersion.of(GROUP, "v1");

  /** The resource {@code webpages} of {@code web.example.dev/v1}. */
  public static final GroupVersionResource RESOURCE =
      new GroupVersionResource(GROUP, "v1", "webpages");

  /** The name of the CustomResourceDefinition's YAML, a resource of this class's package. */
  public static final String CRD_RESOURCE = "webpages.web.example.dev.yaml";

  private ObjectMeta metadata;
  private WebPageSpec spec;
  private WebPageStatus status;

  /** Creates an empty WebPage. */
  public WebPage() {}

  /**
   * Creates a WebPage with a name, a namespace and content, its type meta set.
   *
   * @param namespace the namespace
   * @param name the name
   * @param content the content
   * @return the page
   */
  public static WebPage of(String namespace, String name, String content) {
    WebPage page = new WebPage();
    page.setApiVersion(V1.toString());
    page.setKind(KIND);
    ObjectMeta meta = new ObjectMeta();
    meta.setNamespace(namespace);
    meta.setName(name);
    page.setMetadata(meta);
    page.setSpec(new WebPageSpec(content));
    return page;
  }

  /**
   * Returns the metadata.
   *
   * @return the value
   */
  public ObjectMeta getMetadata() {
    return metadata;
  }

  /**
   * Sets the metadata.
   *
   * @param metadata the value
   */
  public void setMetadata(ObjectMeta metadata) {
    this.metadata = metadata;
  }

  /**
   * Returns the desired state.
   *
   * @return the value
   */
  public WebPageSpec getSpec() {
    return spec;
  }

  /**
   * Sets the desired state.
   *
   * @param spec the value
   */
  public void setSpec(WebPageSpec spec) {
    this.spec = spec;
  }

  /**
   * Returns the observed state.
   *
   * @return the value
   */
  public WebPageStatus getStatus() {
    return status;
  }

  /**
   * Sets the observed state.
   *
   * @param status the value
   */
  public void setStatus(WebPageStatus status) {
    this.status = status;
  }
}
