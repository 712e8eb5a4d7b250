"""Library functions that only walk or relink pointer structures: their derivative is the same call on the shadows.

libstdc++ keeps the red-black tree of ``std::map``/``std::set`` out of line (``libstdc++.so``): inserting a
node links and recolours it (``_Rb_tree_insert_and_rebalance``), erasing unlinks it
(``_Rb_tree_rebalance_for_erase``), iterators step with ``_Rb_tree_increment``/``_Rb_tree_decrement``.  None of
them reads or writes anything but the node links and colours, never the mapped values.  The shadow of a map
is a tree of shadow nodes with the same shape: its header is the shadow of the map's header, each shadow node
is allocated where the node is (and its links are stored where the node's are, as pointer stores' shadows), and
the colours both trees start with are red (zero: shadow memory starts zeroed; the tree code sets every colour
it reads).  Doing each tree operation on the shadow tree as well, with the shadows of the primal nodes, keeps it
the same shape; a walk on it returns the shadow of the node the primal walk returns.  The float data in the
nodes then moves like any other stored value.

Each entry says which arguments are nodes of the tree (pointers whose shadows the call takes); the others
(``bool insert_left``) are passed as they are.  Forward mode and the augmented sweep make the shadow call; the
reverse sweep has nothing to undo (no float passes through these functions).

``std::list`` keeps its node linking out of line too (``std::__detail::_List_node_base``: ``_M_hook`` links a node
before a position, ``_M_unhook`` unlinks it, ``_M_transfer`` splices a range, ``_M_reverse`` and ``swap``): the
doubly linked shadow list of shadow nodes stays the same shape when each is done on the shadows as well.

``std::string``'s ``_M_create(capacity&, old_capacity)`` allocates the character buffer of a string longer than
its local one.  A string with a shadow (a key moved into a ``std::map<std::string, double>`` node, whose shadow
node holds the shadow key) needs a shadow buffer of its own for its shadow's data pointer: the same call on the
shadow string, with the same capacity (the call only raises ``capacity`` to twice ``old_capacity``, so a second
call leaves it as the first did), allocates one of the same size.  The shadow string's destructor frees it like
the primal's.  No derivative passes through characters; the shadow buffer is only there to be written and freed.
"""
from __future__ import annotations

#: mangled name -> what the function does (for messages and docs).
MIRRORED: dict[str, str] = {
    "_ZSt18_Rb_tree_incrementPSt18_Rb_tree_node_base": "std::_Rb_tree_increment (next node in order)",
    "_ZSt18_Rb_tree_incrementPKSt18_Rb_tree_node_base": "std::_Rb_tree_increment (next node in order)",
    "_ZSt18_Rb_tree_decrementPSt18_Rb_tree_node_base": "std::_Rb_tree_decrement (previous node in order)",
    "_ZSt18_Rb_tree_decrementPKSt18_Rb_tree_node_base": "std::_Rb_tree_decrement (previous node in order)",
    "_ZSt29_Rb_tree_insert_and_rebalancebPSt18_Rb_tree_node_baseS0_RS_":
        "std::_Rb_tree_insert_and_rebalance (link a new node, recolour and rotate)",
    "_ZSt28_Rb_tree_rebalance_for_erasePSt18_Rb_tree_node_baseRS_":
        "std::_Rb_tree_rebalance_for_erase (unlink a node, recolour and rotate)",
    "_ZNSt8__detail15_List_node_base7_M_hookEPS0_": "std::list node _M_hook (link a node before a position)",
    "_ZNSt8__detail15_List_node_base9_M_unhookEv": "std::list node _M_unhook (unlink a node)",
    "_ZNSt8__detail15_List_node_base11_M_transferEPS0_S1_": "std::list node _M_transfer (splice a range)",
    "_ZNSt8__detail15_List_node_base10_M_reverseEv": "std::list node _M_reverse (reverse the links)",
    "_ZNSt8__detail15_List_node_base4swapERS0_S1_": "std::list node swap (exchange two lists' links)",
    "_ZNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE9_M_createERmm":
        "std::string::_M_create (allocate a string's character buffer)",
    "_ZNSt7__cxx1112basic_stringIwSt11char_traitsIwESaIwEE9_M_createERmm":
        "std::wstring::_M_create (allocate a string's character buffer)",
}

#: Entries whose shadow call takes the shadows of these arguments only (the others as they are): the string's
#: capacity is the primal's, in the caller's frame.  Every other entry takes the shadow of each pointer argument.
SHADOWED_ARGUMENTS: dict[str, tuple[int, ...]] = {
    "_ZNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE9_M_createERmm": (0,),
    "_ZNSt7__cxx1112basic_stringIwSt11char_traitsIwESaIwEE9_M_createERmm": (0,),
}


def is_mirrored(name: str | None) -> bool:
    """Is ``name`` a pointer-structure function whose derivative is the same call on the shadows?"""
    return name in MIRRORED
