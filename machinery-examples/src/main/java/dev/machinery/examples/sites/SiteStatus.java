package dev.machinery.examples.sites;

/**
 * What a Site's controller last did. Immutable.
 *
 * @param observedGeneration the generation of the spec it acted on
 * @param message what it made of it
 */
public record SiteStatus(Long observedGeneration, String message) {}
