package dev.machinery.unversioned.testapi;

public final class Job extends Thing {}
