package dev.machinery.junit;

import dev.machinery.controller.clock.FakeClock;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ExtensionContextException;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.TestInstancePostProcessor;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * The extension behind {@link EnableApiServer}: starts a {@link TestApiServer} for a test class,
 * creates the class's CustomResourceDefinitions, hands the server and a fabric8 client (when
 * fabric8 is on the class path) to parameters and fields, and stops both after the class's last
 * test. The fabric8 client is reached by name, so that the extension needs nothing of fabric8 when
 * it is absent.
 *
 * <p>The server is started by whichever of the extension's callbacks comes first for the class (the
 * test instance's post-processing under {@code @TestInstance(PER_CLASS)}, else {@code beforeAll}),
 * and kept in the extension store of the outermost enclosing class annotated with {@link
 * EnableApiServer} (the outermost class when none is, the extension being registered otherwise):
 * {@code @Nested} classes find it there and share it, with its CustomResourceDefinitions and its
 * client; those named by an {@code @EnableApiServer} of a nested class itself are created on the
 * shared server before the nested class's first test.
 *
 * <p>Thread-safe as JUnit uses extensions: state is kept in the classes' extension stores, whose
 * values are made once however many threads ask.
 */
public final class ApiServerExtension
    implements BeforeAllCallback, AfterAllCallback, ParameterResolver, TestInstancePostProcessor {
  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(ApiServerExtension.class);
  private static final String FABRIC8_CLIENT = "io.fabric8.kubernetes.client.KubernetesClient";

  /** Creates the extension; JUnit does, for {@link EnableApiServer}. */
  public ApiServerExtension() {}

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    inject(context.getRequiredTestClass(), null, running(context));
  }

  @Override
  public void afterAll(ExtensionContext context) throws Exception {
    // Only the class whose store holds the server stops it: a nested class's store has none.
    Running running = context.getStore(NAMESPACE).remove(Running.class, Running.class);
    if (running != null) {
      running.close();
    }
  }

  @Override
  public void postProcessTestInstance(Object instance, ExtensionContext context) throws Exception {
    inject(instance.getClass(), instance, running(context));
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    return type == TestApiServer.class || type.getName().equals(FABRIC8_CLIENT);
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    Running running = running(context);
    Class<?> type = parameter.getParameter().getType();
    try {
      return type == TestApiServer.class ? running.server() : running.fabric8Client();
    } catch (ReflectiveOperationException e) {
      throw new ParameterResolutionException("fabric8's client could not be made", e);
    }
  }

  /**
   * The server of a context's class, started on first use in the store of the class that owns it,
   * with the CustomResourceDefinitions of the nested classes between that class and this one.
   */
  private static Running running(ExtensionContext context) {
    List<ExtensionContext> classes = new ArrayList<>();
    for (ExtensionContext at = context; at != null; at = at.getParent().orElse(null)) {
      if (at.getTestClass().isPresent() && at.getTestMethod().isEmpty()) {
        classes.add(0, at);
      }
    }
    if (classes.isEmpty()) {
      throw new ExtensionContextException(
          "no API server is running for "
              + context.getDisplayName()
              + "; is the class annotated with @EnableApiServer?");
    }
    int owner = 0;
    for (int i = 0; i < classes.size(); i++) {
      if (settings(classes.get(i)) != null) {
        owner = i;
        break;
      }
    }
    EnableApiServer ownerSettings = settings(classes.get(owner));
    Running running =
        classes
            .get(owner)
            .getStore(NAMESPACE)
            .getOrComputeIfAbsent(
                Running.class, key -> Running.start(ownerSettings), Running.class);
    for (ExtensionContext nested : classes.subList(owner + 1, classes.size())) {
      EnableApiServer own = settings(nested);
      if (own != null && !own.equals(ownerSettings) && own.crds().length > 0) {
        nested
            .getStore(NAMESPACE)
            .getOrComputeIfAbsent(
                new NestedDefinitions(nested.getRequiredTestClass()),
                key -> {
                  for (String crds : own.crds()) {
                    running.server().createCustomResourceDefinitions(crds);
                  }
                  return key;
                },
                NestedDefinitions.class);
      }
    }
    return running;
  }

  private static EnableApiServer settings(ExtensionContext classContext) {
    return AnnotationSupport.findAnnotation(
            classContext.getRequiredTestClass(), EnableApiServer.class)
        .orElse(null);
  }

  /** The key under which a nested class records that its own definitions were created. */
  private record NestedDefinitions(Class<?> testClass) {}

  /**
   * Sets the fields of the server's and the client's types; statics when {@code instance} is null.
   */
  private static void inject(Class<?> type, Object instance, Running running)
      throws ReflectiveOperationException {
    for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
      for (Field field : c.getDeclaredFields()) {
        boolean isStatic = Modifier.isStatic(field.getModifiers());
        if (isStatic != (instance == null) || Modifier.isFinal(field.getModifiers())) {
          continue;
        }
        Object value = null;
        if (field.getType() == TestApiServer.class) {
          value = running.server();
        } else if (field.getType().getName().equals(FABRIC8_CLIENT)) {
          value = running.fabric8Client();
        }
        if (value != null) {
          field.setAccessible(true);
          field.set(instance, value);
        }
      }
    }
  }

  /**
   * The server of a test class and its fabric8 client, made on first use. It is closeable so that
   * JUnit closes it with its store should no {@code afterAll} of the extension run for its class.
   */
  private static final class Running implements AutoCloseable {
    private final TestApiServer server;
    private AutoCloseable fabric8;
    private boolean closed;

    private Running(TestApiServer server) {
      this.server = server;
    }

    /** Starts a server with the settings given (none: the defaults) and its definitions. */
    static Running start(EnableApiServer settings) {
      TestApiServer.Builder builder = TestApiServer.builder();
      if (settings != null) {
        builder
            .requestLog(settings.requestLog())
            .controllers(List.of(settings.controllers()))
            .nodes(settings.nodes());
        if (settings.fakeClock()) {
          builder.clock(new FakeClock(Instant.now()));
        }
      }
      TestApiServer server = builder.start();
      try {
        if (settings != null) {
          for (String crds : settings.crds()) {
            server.createCustomResourceDefinitions(crds);
          }
        }
      } catch (RuntimeException e) {
        server.close();
        throw e;
      }
      return new Running(server);
    }

    TestApiServer server() {
      return server;
    }

    /**
     * fabric8's {@code KubernetesClient} for the server: {@code Config.fromKubeconfig} of the
     * server's kubeconfig, built by {@code KubernetesClientBuilder}.
     */
    synchronized Object fabric8Client() throws ReflectiveOperationException {
      if (fabric8 == null) {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        Class<?> configType = Class.forName("io.fabric8.kubernetes.client.Config", true, loader);
        Object config =
            configType
                .getMethod("fromKubeconfig", String.class)
                .invoke(null, server.kubeconfigYaml());
        Class<?> builderType =
            Class.forName("io.fabric8.kubernetes.client.KubernetesClientBuilder", true, loader);
        Object builder = builderType.getConstructor().newInstance();
        builderType.getMethod("withConfig", configType).invoke(builder, config);
        fabric8 = (AutoCloseable) builderType.getMethod("build").invoke(builder);
      }
      return fabric8;
    }

    @Override
    public synchronized void close() {
      if (closed) {
        return;
      }
      closed = true;
      try {
        if (fabric8 != null) {
          fabric8.close();
        }
      } catch (Exception e) {
        throw new IllegalStateException("fabric8's client could not be closed", e);
      } finally {
        server.close();
      }
    }
  }
}
