package dev.machinery.builtins;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.machinery.apiserver.http.ApiHandler;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.unversioned.errors.ApiErrors;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What an admission plugin reads of the server's other objects, through the in-process handler the
 * server hands each plugin ({@link dev.machinery.apiserver.admission.AdmissionPlugin#initialize}),
 * as kube-apiserver's plugins read through their loopback client's informers. Objects come back as
 * JSON trees. Thread-safe once initialized.
 */
final class Loopback {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final TypeReference<Map<String, Object>> TREE = new TypeReference<>() {};

  /** The query of a read from the watch cache. */
  private static final Map<String, List<String>> CACHED = Map.of("resourceVersion", List.of("0"));

  private volatile ApiHandler handler;

  /** Called once by the server. */
  void initialize(ApiHandler loopback) {
    this.handler = Objects.requireNonNull(loopback, "loopback");
  }

  private ApiHandler handler() {
    ApiHandler h = handler;
    if (h == null) {
      throw new IllegalStateException("the admission plugin was not initialized by a server");
    }
    return h;
  }

  /** GETs an object by path; empty on 404, the server's error otherwise. */
  Optional<Map<String, Object>> get(String path) {
    ApiResponse response = send("GET", path, null);
    if (response.status() == 404) {
      return Optional.empty();
    }
    return Optional.of(body(path, response));
  }

  /**
   * GETs an object as an informer's lister finds it, and the storage when it does not: first as the
   * server's watch cache holds it ({@code resourceVersion=0}: no request to the storage, every
   * write made through this server in it), then, when the cache does not hold it, by a consistent
   * GET (an object another server wrote to the same storage may not have reached the cache yet).
   * Empty when neither holds it.
   */
  Optional<Map<String, Object>> lookup(String path) {
    ApiResponse cached = send("GET", path, CACHED, null);
    if (cached.status() != 404) {
      return Optional.of(body(path, cached));
    }
    return get(path);
  }

  /** The items of a list by path (empty when the resource is not served). */
  List<Map<String, Object>> list(String path) {
    return list(path, Map.of());
  }

  /**
   * The items of a list as the server's watch cache holds them ({@code resourceVersion=0}), as an
   * informer's lister reads them, without a request to the storage: every write made through this
   * server is in it; what other servers wrote to the same storage comes with the cache's watch.
   */
  List<Map<String, Object>> listCached(String path) {
    return list(path, CACHED);
  }

  @SuppressWarnings("unchecked")
  private List<Map<String, Object>> list(String path, Map<String, List<String>> query) {
    ApiResponse response = send("GET", path, query, null);
    if (response.status() == 404) {
      return List.of();
    }
    Map<String, Object> list = body(path, response);
    List<Map<String, Object>> out = new ArrayList<>();
    if (list.get("items") instanceof List<?> items) {
      for (Object item : items) {
        if (item instanceof Map<?, ?> map) {
          out.add((Map<String, Object>) map);
        }
      }
    }
    return out;
  }

  /** POSTs an object; returns the status code (a conflict is not an error here). */
  int create(String path, Map<String, Object> object) {
    try {
      return send("POST", path, JSON.writeValueAsBytes(object)).status();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * POSTs an object and reads the answer of a {@code 200} or {@code 201}, such as a review's; any
   * other answer is the server's error.
   */
  Map<String, Object> post(String path, Map<String, Object> object) {
    ApiResponse response;
    try {
      response = send("POST", path, JSON.writeValueAsBytes(object));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    if (response.status() == 201) {
      try {
        return JSON.readValue(bytes(response), TREE);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return body(path, response);
  }

  /** PUTs an object; returns the status code (a conflict is not an error here). */
  int update(String path, Map<String, Object> object) {
    try {
      return send("PUT", path, JSON.writeValueAsBytes(object)).status();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private ApiResponse send(String method, String path, byte[] body) {
    return send(method, path, Map.of(), body);
  }

  private ApiResponse send(
      String method, String path, Map<String, List<String>> query, byte[] body) {
    return handler()
        .handle(
            new ApiRequest(
                method,
                path,
                query,
                body == null
                    ? Map.of("Accept", List.of("application/json"))
                    : Map.of(
                        "Accept",
                        List.of("application/json"),
                        "Content-Type",
                        List.of("application/json")),
                new ByteArrayInputStream(body == null ? new byte[0] : body)));
  }

  private static Map<String, Object> body(String path, ApiResponse response) {
    byte[] bytes = bytes(response);
    if (response.status() != 200) {
      throw ApiErrors.newInternalError(
          new IllegalStateException(
              "reading "
                  + path
                  + " answered "
                  + response.status()
                  + ": "
                  + new String(bytes, StandardCharsets.UTF_8)));
    }
    try {
      return JSON.readValue(bytes, TREE);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A response's body: as it is, or a streamed one (an audited one may be) read to its end. */
  private static byte[] bytes(ApiResponse response) {
    if (!response.isStreaming()) {
      return response.body();
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      response.writeBody(out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }
}
