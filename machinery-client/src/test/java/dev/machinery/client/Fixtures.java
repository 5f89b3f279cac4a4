package dev.machinery.client;

import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupKind;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.core.schema.GroupVersionResource;
import dev.machinery.restmapper.RESTMapper;
import dev.machinery.restmapper.RESTMapping;
import dev.machinery.restmapper.Scope;
import dev.machinery.unversioned.meta.v1.MetaV1;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import dev.machinery.unversioned.meta.v1.TypeMeta;
import java.util.List;

/** A typed kind and a fixed REST mapper for the client's unit tests. */
final class Fixtures {
  static final GroupVersion V1 = GroupVersion.of("demo.dev", "v1");
  static final GroupVersionKind GADGET = V1.withKind("Gadget");
  static final GroupVersionResource GADGETS = GroupVersionResource.of("demo.dev", "v1", "gadgets");

  static final Scheme SCHEME =
      MetaV1.addToScheme(Scheme.builder()).addKnownTypes(V1, Gadget.class).build();

  /** A mapper that knows gadgets only. */
  static final RESTMapper MAPPER =
      new RESTMapper() {
        private final RESTMapping mapping = new RESTMapping(GADGETS, GADGET, Scope.NAMESPACE);

        @Override
        public GroupVersionKind kindFor(GroupVersionResource resource) {
          return GADGET;
        }

        @Override
        public List<GroupVersionKind> kindsFor(GroupVersionResource resource) {
          return List.of(GADGET);
        }

        @Override
        public GroupVersionResource resourceFor(GroupVersionResource resource) {
          return GADGETS;
        }

        @Override
        public List<GroupVersionResource> resourcesFor(GroupVersionResource resource) {
          return List.of(GADGETS);
        }

        @Override
        public RESTMapping restMapping(GroupKind kind, String... versions) {
          return mapping;
        }

        @Override
        public List<RESTMapping> restMappings(GroupKind kind, String... versions) {
          return List.of(mapping);
        }

        @Override
        public String resourceSingularizer(String resource) {
          return "gadget";
        }
      };

  private Fixtures() {}

  /** {@code demo.dev/v1 Gadget}. */
  public static final class Gadget extends TypeMeta {
    private ObjectMeta metadata;
    private String size;

    /** Creates an empty gadget. */
    public Gadget() {}

    static Gadget named(String name) {
      Gadget g = new Gadget();
      g.setApiVersion("demo.dev/v1");
      g.setKind("Gadget");
      ObjectMeta meta = new ObjectMeta();
      meta.setName(name);
      g.setMetadata(meta);
      return g;
    }

    /**
     * Returns the metadata.
     *
     * @return the metadata
     */
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
     * Returns the size.
     *
     * @return the size
     */
    public String getSize() {
      return size;
    }

    /**
     * Sets the size.
     *
     * @param size the size
     */
    public void setSize(String size) {
      this.size = size;
    }
  }
}
