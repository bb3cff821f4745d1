package dev.stackbench.local;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** A process and all of its descendants, deepest first, so stopping in list order never orphans a child. */
final class ProcessTree {

    private ProcessTree() {}

    static List<ProcessHandle> of(ProcessHandle root) {
        List<ProcessHandle> tree = new ArrayList<>(
                root.descendants().sorted(byDepthFrom(root).reversed()).toList());
        tree.add(root);
        return tree;
    }

    private static Comparator<ProcessHandle> byDepthFrom(ProcessHandle root) {
        return Comparator.comparingInt(handle -> depth(handle, root));
    }

    private static int depth(ProcessHandle handle, ProcessHandle root) {
        int depth = 0;
        for (ProcessHandle current = handle; current.pid() != root.pid(); depth++) {
            var parent = current.parent();
            if (parent.isEmpty()) {
                break;
            }
            current = parent.get();
        }
        return depth;
    }
}
