package dev.machinery.benchmarks;

import dev.machinery.apiserver.http.ApiHandler;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;

/**
 * The API server's handler on Jetty 12, for measurement only: {@link ServerLoad} runs the same
 * requests against it and against the shipped JDK binding. Not part of the library.
 */
final class JettyBinding implements AutoCloseable {
  private final Server server;
  private final ServerConnector connector;

  private JettyBinding(Server server, ServerConnector connector) {
    this.server = server;
    this.connector = connector;
  }

  static JettyBinding start(ApiHandler handler) throws Exception {
    Server server = new Server();
    ServerConnector connector = new ServerConnector(server);
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    server.addConnector(connector);
    server.setHandler(
        new Handler.Abstract() {
          @Override
          public boolean handle(Request request, Response response, Callback callback)
              throws Exception {
            Map<String, List<String>> headers = new LinkedHashMap<>();
            for (HttpField field : request.getHeaders()) {
              headers
                  .computeIfAbsent(field.getName(), k -> new ArrayList<>())
                  .add(field.getValue());
            }
            InputStream body = Content.Source.asInputStream(request);
            ApiResponse answer =
                handler.handle(
                    new ApiRequest(
                        request.getMethod(),
                        URLDecoder.decode(request.getHttpURI().getPath(), StandardCharsets.UTF_8),
                        query(request.getHttpURI().getQuery()),
                        headers,
                        body));
            response.setStatus(answer.status());
            answer
                .headers()
                .forEach((name, values) -> values.forEach(v -> response.getHeaders().add(name, v)));
            try (OutputStream out = Content.Sink.asOutputStream(response)) {
              answer.writeBody(out);
            }
            callback.succeeded();
            return true;
          }
        });
    server.start();
    return new JettyBinding(server, connector);
  }

  int port() {
    return connector.getLocalPort();
  }

  private static Map<String, List<String>> query(String raw) {
    Map<String, List<String>> query = new LinkedHashMap<>();
    if (raw == null || raw.isEmpty()) {
      return query;
    }
    for (String pair : raw.split("&")) {
      int eq = pair.indexOf('=');
      String name =
          URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
      String value =
          eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
      query.computeIfAbsent(name, k -> new ArrayList<>()).add(value);
    }
    return query;
  }

  @Override
  public void close() throws Exception {
    server.stop();
  }
}
