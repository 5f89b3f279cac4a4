/**
 * Work queues with client-go's semantics ({@code k8s.io/client-go/util/workqueue}).
 *
 * <p>A {@link dev.machinery.controller.workqueue.WorkQueue} holds each item once however often it
 * is added while waiting, and never hands one item to two workers at once: an item added while a
 * worker processes it is queued again when the worker calls {@code done}. A {@link
 * dev.machinery.controller.workqueue.DelayingQueue} adds items after a delay; a {@link
 * dev.machinery.controller.workqueue.RateLimitingQueue} asks a {@link
 * dev.machinery.controller.workqueue.RateLimiter} how long to wait before an item's next attempt.
 * {@link dev.machinery.controller.workqueue.RateLimiters} builds client-go's limiters.
 */
package dev.machinery.controller.workqueue;
