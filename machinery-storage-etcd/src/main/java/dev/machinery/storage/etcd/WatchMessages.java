package dev.machinery.storage.etcd;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import dev.machinery.core.codec.DecodeException;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;

/**
 * The messages of one open etcd watch, each a {@code WatchResponse} in the gateway's JSON form
 * (bytes may be binary nodes rather than base64 text: {@link EtcdClient#bytes} reads both). Read by
 * one thread; {@link #close()} may be called from any thread and ends the reading.
 */
interface WatchMessages extends Closeable {
  /**
   * The next message, waiting for it.
   *
   * @return the next {@code WatchResponse}, or null when the stream ended cleanly
   * @throws IOException when the stream broke, or etcd answered an error in it
   */
  JsonNode next() throws IOException;

  /**
   * The endpoint the stream is open on.
   *
   * @return its index among the client's endpoints
   */
  int endpoint();

  /** Ends the stream; a reader waiting in {@link #next()} is woken with an end or an error. */
  @Override
  void close();

  /**
   * The gateway's streamed answer: one JSON object after another, each {@code {"result": ...}} or
   * {@code {"error": ...}}.
   *
   * @param body the answer's body
   * @param endpoint the index of the endpoint that answered
   * @return its messages
   * @throws IOException when the body cannot be read from
   */
  static WatchMessages ofGateway(InputStream body, int endpoint) throws IOException {
    MappingIterator<JsonNode> lines = EtcdClient.JSON.readerFor(JsonNode.class).readValues(body);
    return new WatchMessages() {
      @Override
      public JsonNode next() throws IOException {
        if (!lines.hasNextValue()) {
          return null;
        }
        JsonNode line = lines.nextValue();
        if (line.has("error")) {
          throw new IOException("the watch failed: " + line.path("error"));
        }
        return line.path("result");
      }

      @Override
      public int endpoint() {
        return endpoint;
      }

      @Override
      public void close() {
        try {
          body.close();
        } catch (IOException e) {
          // Closing ends the reading whatever the body says of it.
        }
      }
    };
  }

  /**
   * etcd's gRPC {@code Watch} stream: each message decoded as it is read, with no text between.
   *
   * @param stream the stream
   * @param response the {@code WatchResponse} message
   * @param endpoint the index of the endpoint the stream is open on
   * @return its messages
   */
  static WatchMessages ofGrpc(
      GrpcMessageStream stream, EtcdMessages.Message response, int endpoint) {
    return new WatchMessages() {
      @Override
      public JsonNode next() throws IOException {
        byte[] message = stream.next();
        if (message == null) {
          return null;
        }
        try {
          return response.decode(message);
        } catch (DecodeException e) {
          throw new IOException(
              "etcd's watch stream holds what is not a " + response.name + ": " + e.getMessage(),
              e);
        }
      }

      @Override
      public int endpoint() {
        return endpoint;
      }

      @Override
      public void close() {
        stream.close();
      }
    };
  }
}
