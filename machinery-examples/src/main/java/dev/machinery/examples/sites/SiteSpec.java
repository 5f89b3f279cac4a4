package dev.machinery.examples.sites;

/**
 * What a Site asks for. Immutable.
 *
 * @param image the image that serves the content
 * @param replicas how many copies serve it
 * @param content the content served
 */
public record SiteSpec(String image, Integer replicas, String content) {}
