package dev.machinery.examples.apps;

/**
 * A health check ({@code Probe}): one handler and its timing. Components are in Kubernetes' field
 * order, so that the JSON is written as kube-apiserver writes it.
 *
 * @param httpGet an HTTP GET that must succeed
 * @param tcpSocket a TCP port that must accept
 * @param initialDelaySeconds the wait before the first check
 * @param timeoutSeconds how long a check may take
 * @param periodSeconds how often to check
 * @param successThreshold the successes that make it pass
 * @param failureThreshold the failures that make it fail
 */
public record Probe(
    HTTPGetAction httpGet,
    TCPSocketAction tcpSocket,
    Integer initialDelaySeconds,
    Integer timeoutSeconds,
    Integer periodSeconds,
    Integer successThreshold,
    Integer failureThreshold) {}
