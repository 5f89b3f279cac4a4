package dev.machinery.apiserver.registry.webhook;

import dev.machinery.apiserver.admission.webhook.ServiceResolver;
import dev.machinery.apiserver.certs.CaBundles;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLHandshakeException;

/**
 * Posts admission reviews to webhooks over the JDK's {@link HttpClient}: one client per CA bundle,
 * kept while the server runs, so connections to a webhook are reused; a webhook with a CA bundle is
 * trusted through it alone, one without through the JDK's authorities. Each call waits at most its
 * webhook's timeout (sent to it as the {@code timeout} query parameter, as kube-apiserver does), on
 * the thread of the request it admits, so a hanging webhook holds up only the requests that call
 * it. Thread-safe.
 */
public final class WebhookClient {
  private final Map<String, HttpClient> clients = new ConcurrentHashMap<>();
  private final ServiceResolver resolver;

  /**
   * Creates the client.
   *
   * @param resolver turns service references into URLs
   */
  public WebhookClient(ServiceResolver resolver) {
    this.resolver = resolver;
  }

  /** A call that did not get an answer, in the words kube-apiserver's client uses. */
  static final class CallFailure extends Exception {
    private static final long serialVersionUID = 1L;

    CallFailure(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /**
   * The URL a webhook is called at, with its {@code timeout} parameter.
   *
   * @param webhook the webhook
   * @return the URL
   */
  URI target(Webhook webhook) {
    URI base =
        webhook.url() != null
            ? URI.create(webhook.url())
            : resolver.resolve(
                webhook.service().namespace(),
                webhook.service().name(),
                webhook.service().port(),
                webhook.service().path());
    String timeout = "timeout=" + webhook.timeout().toSeconds() + "s";
    String query = base.getRawQuery();
    String text = base.toString();
    int hash = text.indexOf('#');
    if (hash >= 0) {
      text = text.substring(0, hash);
    }
    return URI.create(text + (query == null ? "?" : "&") + timeout);
  }

  /**
   * Posts a review and returns the response body.
   *
   * @param webhook the webhook
   * @param body the review
   * @return the body of a 200 answer
   * @throws CallFailure when there is no 200 answer in time
   */
  byte[] post(Webhook webhook, byte[] body) throws CallFailure {
    URI url;
    try {
      url = target(webhook);
    } catch (IllegalArgumentException e) {
      throw new CallFailure("invalid URL: " + e.getMessage(), e);
    }
    String post = "Post \"" + url + "\": ";
    if (!"https".equals(url.getScheme())) {
      throw new CallFailure(post + "the webhook's URL must use https", null);
    }
    HttpClient client;
    try {
      client =
          clients.computeIfAbsent(
              webhook.caBundle() == null ? "" : webhook.caBundle(), this::client);
    } catch (IllegalArgumentException e) {
      throw new CallFailure(e.getMessage(), e);
    }
    HttpRequest request =
        HttpRequest.newBuilder(url)
            .timeout(webhook.timeout())
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, */*")
            .POST(HttpRequest.BodyPublishers.ofByteArray(body))
            .build();
    HttpResponse<byte[]> response;
    // The whole exchange, body included, within the webhook's timeout.
    CompletableFuture<HttpResponse<byte[]>> exchange =
        client.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray());
    try {
      response = exchange.get(webhook.timeout().toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      exchange.cancel(true);
      throw new CallFailure(post + "context deadline exceeded", e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof HttpTimeoutException) {
        throw new CallFailure(post + "context deadline exceeded", cause);
      }
      if (cause instanceof ConnectException) {
        throw new CallFailure(
            post + "dial tcp " + url.getHost() + ":" + port(url) + ": connect: connection refused",
            cause);
      }
      if (cause instanceof SSLHandshakeException) {
        throw new CallFailure(
            post + "tls: failed to verify certificate: " + cause.getMessage(), cause);
      }
      throw new CallFailure(
          post + (cause.getMessage() == null ? cause.toString() : cause.getMessage()), cause);
    } catch (InterruptedException e) {
      exchange.cancel(true);
      Thread.currentThread().interrupt();
      throw new CallFailure(post + "context canceled", e);
    }
    if (response.statusCode() != 200) {
      throw new CallFailure(
          "the server responded with the status code "
              + response.statusCode()
              + " but did not return more information",
          null);
    }
    return response.body();
  }

  private static int port(URI url) {
    return url.getPort() < 0 ? 443 : url.getPort();
  }

  private HttpClient client(String caBundle) {
    HttpClient.Builder builder =
        HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(Webhook.MAX_TIMEOUT_SECONDS))
            .followRedirects(HttpClient.Redirect.NEVER)
            .version(HttpClient.Version.HTTP_1_1);
    if (!caBundle.isEmpty()) {
      builder.sslContext(CaBundles.trusting(caBundle.getBytes(StandardCharsets.US_ASCII)));
    }
    return builder.build();
  }
}
