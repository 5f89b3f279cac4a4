package dev.machinery.junit;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ExtensionContextException;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.TestInstancePostProcessor;

/**
 * The extension behind {@link EnableApiServer}: starts a {@link TestApiServer} before a test
 * class's first test, creates the class's CustomResourceDefinitions, hands the server and a fabric8
 * client (when fabric8 is on the class path) to parameters and fields, and stops both after the
 * class's last test. The fabric8 client is reached by name, so that the extension needs nothing of
 * fabric8 when it is absent.
 *
 * <p>Thread-safe as JUnit uses extensions: state is kept in the class's extension store.
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
    EnableApiServer settings = context.getRequiredTestClass().getAnnotation(EnableApiServer.class);
    boolean requestLog = settings != null && settings.requestLog();
    TestApiServer server = TestApiServer.start(requestLog);
    Running running = new Running(server);
    context.getStore(NAMESPACE).put(Running.class, running);
    if (settings != null) {
      for (String crds : settings.crds()) {
        server.createCustomResourceDefinitions(crds);
      }
    }
    inject(context.getRequiredTestClass(), null, running);
  }

  @Override
  public void afterAll(ExtensionContext context) throws Exception {
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

  private static Running running(ExtensionContext context) {
    for (ExtensionContext at = context; at != null; at = at.getParent().orElse(null)) {
      Running running = at.getStore(NAMESPACE).get(Running.class, Running.class);
      if (running != null) {
        return running;
      }
    }
    throw new ExtensionContextException(
        "no API server is running for "
            + context.getDisplayName()
            + "; is the class annotated"
            + " with @EnableApiServer?");
  }

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

  /** The server of a test class and its fabric8 client, made on first use. */
  private static final class Running {
    private final TestApiServer server;
    private AutoCloseable fabric8;

    Running(TestApiServer server) {
      this.server = server;
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

    synchronized void close() throws Exception {
      try {
        if (fabric8 != null) {
          fabric8.close();
        }
      } finally {
        server.close();
      }
    }
  }
}
