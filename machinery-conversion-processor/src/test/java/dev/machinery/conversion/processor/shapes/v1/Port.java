package dev.machinery.conversion.processor.shapes.v1;

public record Port(String name, int port, String protocol) {}
