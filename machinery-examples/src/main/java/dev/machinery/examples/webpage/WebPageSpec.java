package dev.machinery.examples.webpage;

/**
 * What a WebPage asks for. Immutable, so safe to share between threads.
 *
 * @param content the page's content, published in the ConfigMap under {@code index.html}
 */
public record WebPageSpec(String content) {}
