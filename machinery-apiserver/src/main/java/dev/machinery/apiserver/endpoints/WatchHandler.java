package dev.machinery.apiserver.endpoints;

import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.request.RequestContext;
import dev.machinery.apiserver.request.RequestInfo;
import dev.machinery.unversioned.meta.v1.ListOptions;
import java.util.Locale;

/**
 * {@code watch}: a streamed response of the changes to the objects that match, from the revision
 * {@code resourceVersion} names (see {@link WatchStreams}). Immutable; thread-safe.
 */
final class WatchHandler implements VerbHandler {
  private final RequestScope scope;
  private final WatchStreams watches;

  WatchHandler(RequestScope scope, WatchStreams watches) {
    this.scope = scope;
    this.watches = watches;
  }

  @Override
  public ApiResponse handle(RequestContext context, RequestInfo info, Served target) {
    ApiRequest request = context.request();
    String upgrade = request.header("Upgrade");
    if (upgrade != null && upgrade.toLowerCase(Locale.ROOT).contains("websocket")) {
      // No WebSocket here: the answer is an HTTP watch that ends at once, with a warning. A client
      // that tried a WebSocket first (fabric8's) takes the 200 as "watch over HTTP instead".
      return ApiResponse.of(200, "application/json", new byte[0])
          .withHeader(
              "Warning",
              "299 - \"watches are not served over WebSocket here; watch with a streamed HTTP"
                  + " response (the same request without Upgrade)\"");
    }
    ListOptions options = RequestOptions.list(scope, request);
    ListOptionsValidation.check(options, true);
    return watches.stream(
        request,
        target,
        info.namespace(),
        options,
        RequestOptions.filter(options, target.store()),
        scope.negotiateWatch(request, target),
        object -> scope.toServed(object, target),
        name -> info.name() == null || info.name().equals(name));
  }
}
