; PHP

; -- definitions -------------------------------------------------------------------------------------------------
(function_definition name: (name) @name.definition.function)
(method_declaration name: (name) @name.definition.method)
(class_declaration name: (name) @name.definition.class)
(interface_declaration name: (name) @name.definition.interface)
(trait_declaration name: (name) @name.definition.class)
(enum_declaration name: (name) @name.definition.enum)

; -- references --------------------------------------------------------------------------------------------------
; how a call names its receiver decides where ``resolve.phpscope`` looks for it: a function (global), `$this->m()`,
; `self::m()` and `static::m()` (by_self), `parent::m()` (by_parent), `Post::m()` (by_class, after called_class);
; kinds sorting before `call` and `class`, which would otherwise take the node
(function_call_expression function: (name) @name.reference.function)
(function_call_expression function: (qualified_name (name) @name.reference.function))
(member_call_expression object: (variable_name (name) @_this (#eq? @_this "this")) name: (name) @name.reference.by_self)
(nullsafe_member_call_expression
  object: (variable_name (name) @_this (#eq? @_this "this")) name: (name) @name.reference.by_self)
(scoped_call_expression scope: (relative_scope) @_scope (#any-of? @_scope "self" "static") name: (name) @name.reference.by_self)
(scoped_call_expression scope: (relative_scope) @_scope (#eq? @_scope "parent") name: (name) @name.reference.by_parent)
(scoped_call_expression scope: [(name) (qualified_name)] @name.reference.called_class name: (name) @name.reference.by_class)
(member_call_expression name: (name) @name.reference.call)
(nullsafe_member_call_expression name: (name) @name.reference.call)
(scoped_call_expression name: (name) @name.reference.call)
(scoped_call_expression scope: [(name) @name.reference.class (qualified_name) @name.reference.class])
(class_constant_access_expression . [(name) @name.reference.class (qualified_name) @name.reference.class])
(object_creation_expression [(name) @name.reference.class (qualified_name) @name.reference.class])
(base_clause [(name) @name.reference.class (qualified_name) @name.reference.class])
(class_interface_clause [(name) @name.reference.class (qualified_name) @name.reference.class])
(use_declaration [(name) @name.reference.class (qualified_name) @name.reference.class])
(named_type [(name) @name.reference.type (qualified_name) @name.reference.type])
; a class's parents and traits once more as ``ancestor``: its methods are reached through them (``resolve.phpscope``)
(base_clause [(name) @name.reference.ancestor (qualified_name) @name.reference.ancestor])
(use_declaration [(name) @name.reference.ancestor (qualified_name) @name.reference.ancestor])
(name) @name.reference.identifier

; -- imports -----------------------------------------------------------------------------------------------------
; `use A\B as C`: the first child is the import (the alias is read from the clause by ``resolve.phpscope``)
(namespace_use_declaration (namespace_use_clause . [(qualified_name) (name)] @import))
(namespace_use_clause alias: (name) @import.binding)  ; kept in ImportRef.names as ``* as C``, after what it renames
(namespace_use_declaration
  (namespace_name) @import
  body: (namespace_use_group (namespace_use_clause . [(qualified_name) (name)] @import.name)))
(require_expression [(string (string_content) @import.relative) (encapsed_string (string_content) @import.relative)
  (binary_expression right: [(string (string_content) @import.relative) (encapsed_string (string_content) @import.relative)])])
(require_once_expression [(string (string_content) @import.relative) (encapsed_string (string_content) @import.relative)
  (binary_expression right: [(string (string_content) @import.relative) (encapsed_string (string_content) @import.relative)])])
(include_expression [(string (string_content) @import.relative) (encapsed_string (string_content) @import.relative)
  (binary_expression right: [(string (string_content) @import.relative) (encapsed_string (string_content) @import.relative)])])
(include_once_expression [(string (string_content) @import.relative) (encapsed_string (string_content) @import.relative)
  (binary_expression right: [(string (string_content) @import.relative) (encapsed_string (string_content) @import.relative)])])
(namespace_definition name: (namespace_name) @namespace)
