package dev.machinery.testing.testapi;

import dev.machinery.conversion.NotConverted;
import dev.machinery.core.runtime.ApiObject;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupVersion;

/** Kinds for the harness's tests: a property lost by design, and a setter that refuses values. */
public final class Cogs {
  public static final GroupVersion V1 = GroupVersion.of("cogs.test", "v1");
  private static final GroupVersion INTERNAL = GroupVersion.internal("cogs.test");

  private Cogs() {}

  /** Holds apiVersion and kind. */
  public abstract static class Typed implements ApiObject {
    private String apiVersion;
    private String kind;

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
  }

  /** The v1 form. */
  public static final class Cog extends Typed {
    private String name;

    public String getName() {
      return name;
    }

    public void setName(String name) {
      this.name = name;
    }
  }

  /** The internal form, with a cache that no version carries. */
  public static final class InternalCog extends Typed {
    private String name;
    private String cache;

    public String getName() {
      return name;
    }

    public void setName(String name) {
      this.name = name;
    }

    @NotConverted(reason = "recomputed by the server; no version carries it")
    public String getCache() {
      return cache;
    }

    public void setCache(String cache) {
      this.cache = cache;
    }
  }

  /** A kind whose setter refuses most values. */
  public static final class Picky extends Typed {
    private String size;

    public String getSize() {
      return size;
    }

    public void setSize(String size) {
      if (size != null && !size.matches("[0-9]+")) {
        throw new IllegalArgumentException("size must be digits, got \"" + size + "\"");
      }
      this.size = size;
    }
  }

  public static Scheme scheme() {
    return Scheme.builder()
        .addKnownType(V1.withKind("Cog"), Cog.class)
        .addKnownType(INTERNAL.withKind("Cog"), InternalCog.class)
        .addConversion(
            Cog.class,
            InternalCog.class,
            (in, scope) -> {
              InternalCog out = new InternalCog();
              out.setName(in.getName());
              return out;
            })
        .addConversion(
            InternalCog.class,
            Cog.class,
            (in, scope) -> {
              Cog out = new Cog();
              out.setName(in.getName());
              return out;
            })
        .build();
  }

  public static Scheme pickyScheme() {
    return Scheme.builder().addKnownType(V1.withKind("Picky"), Picky.class).build();
  }
}
