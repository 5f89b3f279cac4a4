package dev.machinery.storage.etcd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.storage.etcd.testing.EtcdProcess;
import java.io.File;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Netty's HTTP/2 codec is an optional dependency: on a class path without Netty the storage works
 * on the gateway (a write, a read and a watch against a real etcd), and {@code grpc(true)} fails at
 * once, naming the artifact to add, rather than when the first call is made.
 */
class GrpcWithoutNettyTest {
  /** The test's class path without Netty's jars, in a loader that sees nothing else. */
  private static URLClassLoader withoutNetty() throws Exception {
    String path = System.getProperty("surefire.test.class.path");
    if (path == null || path.isEmpty()) {
      path = System.getProperty("java.class.path");
    }
    List<URL> urls = new ArrayList<>();
    boolean nettyLeftOut = false;
    for (String entry : path.split(File.pathSeparator)) {
      if (entry.isEmpty()) {
        continue;
      }
      if (new File(entry).getName().startsWith("netty-")) {
        nettyLeftOut = true;
        continue;
      }
      urls.add(new File(entry).toURI().toURL());
    }
    assertTrue(nettyLeftOut, "Netty is on the test's class path: " + path);
    return new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader());
  }

  @Test
  void grpcFailsAtOnceNamingTheCodecAndTheGatewayNeedsNoNetty() throws Exception {
    try (URLClassLoader loader = withoutNetty()) {
      assertThrows(
          ClassNotFoundException.class,
          () ->
              Class.forName("io.netty.handler.codec.http2.Http2FrameCodecBuilder", false, loader));
      Class<?> storage = Class.forName(EtcdStorage.class.getName(), true, loader);
      assertFalse(storage == EtcdStorage.class, "loaded apart from the test's own classes");
      Method builder = storage.getMethod("builder", URI[].class);
      try (EtcdProcess etcd = EtcdProcess.start()) {
        // On the gateway, a write, a read and a watch, with no Netty class to be had.
        Object onGateway = builder.invoke(null, (Object) new URI[] {etcd.endpoint()});
        Object built = onGateway.getClass().getMethod("build").invoke(onGateway);
        Class<?> api = Class.forName("dev.machinery.apiserver.storage.Storage", false, loader);
        Object watch = api.getMethod("watch", String.class, long.class).invoke(built, "k/", 0L);
        api.getMethod("create", String.class, byte[].class)
            .invoke(built, "k/one", "v".getBytes(StandardCharsets.UTF_8));
        Optional<?> read = (Optional<?>) api.getMethod("get", String.class).invoke(built, "k/one");
        assertTrue(read.isPresent());
        Class<?> watches =
            Class.forName("dev.machinery.apiserver.storage.StorageWatch", false, loader);
        Object event =
            watches
                .getMethod("poll", long.class, TimeUnit.class)
                .invoke(watch, 10L, TimeUnit.SECONDS);
        assertNotNull(event, "the watch saw the write");
        watches.getMethod("close").invoke(watch);
        api.getMethod("close").invoke(built);
      }

      Object forGrpc = builder.invoke(null, (Object) new URI[] {URI.create("http://127.0.0.1:1")});
      Method grpc = forGrpc.getClass().getMethod("grpc", boolean.class);
      InvocationTargetException thrown =
          assertThrows(InvocationTargetException.class, () -> grpc.invoke(forGrpc, true));
      assertEquals(IllegalStateException.class, thrown.getCause().getClass());
      assertTrue(
          thrown.getCause().getMessage().contains("io.netty:netty-codec-http2"),
          thrown.getCause().getMessage());
      // Asking for the gateway is still fine.
      grpc.invoke(forGrpc, false);
    }
  }
}
