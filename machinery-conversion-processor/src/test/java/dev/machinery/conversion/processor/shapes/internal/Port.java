package dev.machinery.conversion.processor.shapes.internal;

public record Port(String name, int port, Protocol protocol) {}
