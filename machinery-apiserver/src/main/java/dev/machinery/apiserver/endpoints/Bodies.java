package dev.machinery.apiserver.endpoints;

import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.unversioned.errors.ApiErrors;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;

/** Reads request bodies under the server's size limit ({@code 413} beyond it). Stateless. */
final class Bodies {
  private Bodies() {}

  static byte[] read(ApiRequest request, long maxBytes) {
    String length = request.header("Content-Length");
    if (length != null) {
      try {
        if (Long.parseLong(length.trim()) > maxBytes) {
          throw tooLarge(maxBytes);
        }
      } catch (NumberFormatException e) {
        throw ApiErrors.newBadRequest("invalid Content-Length: " + length);
      }
    }
    try (InputStream in = request.body()) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      byte[] buffer = new byte[8192];
      long total = 0;
      int n;
      while ((n = in.read(buffer)) >= 0) {
        total += n;
        if (total > maxBytes) {
          throw tooLarge(maxBytes);
        }
        out.write(buffer, 0, n);
      }
      return out.toByteArray();
    } catch (IOException e) {
      throw ApiErrors.newBadRequest("the request body could not be read: " + e.getMessage());
    }
  }

  private static RuntimeException tooLarge(long maxBytes) {
    return ApiErrors.newRequestEntityTooLarge("limit is " + maxBytes);
  }
}
