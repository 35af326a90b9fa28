; Ruby

; -- definitions -------------------------------------------------------------------------------------------------
(method name: (_) @name.definition.method)
(singleton_method name: (_) @name.definition.method)
(alias name: (_) @name.definition.method)
(class name: [(constant) @name.definition.class (scope_resolution name: (_) @name.definition.class)])
(module name: [(constant) @name.definition.module (scope_resolution name: (_) @name.definition.module)])
(assignment left: (constant) @name.definition.constant)

; -- references --------------------------------------------------------------------------------------------------
; how a call names its receiver decides where ``resolve.rubyscope`` looks for it: `m(…)` and `self.m` (by_self),
; `Account.m` (by_class, after called_class), anything else (call); kinds sorting before `call` take the node
(call !receiver method: (identifier) @name.reference.by_self)
(call receiver: (self) method: (identifier) @name.reference.by_self)
(call receiver: [(constant) (scope_resolution)] @name.reference.called_class method: (identifier) @name.reference.by_class)
(call method: (identifier) @name.reference.call)
(superclass [(constant) @name.reference.class (scope_resolution) @name.reference.class])
; a qualified constant counts whole (`Billing::Plan`), its parts do not: `Plan` alone would be another constant
(scope_resolution) @name.reference.constant
; a class's superclass and its mixins once more as ``ancestor``: its methods are reached through them
(superclass [(constant) @name.reference.ancestor (scope_resolution) @name.reference.ancestor])
(call
  method: (identifier) @_mixin (#any-of? @_mixin "include" "extend" "prepend")
  arguments: (argument_list [(constant) @name.reference.ancestor (scope_resolution) @name.reference.ancestor]))
(scope_resolution scope: (_) @name.reference.scoped)
(scope_resolution name: (_) @name.reference.scoped)
(constant) @name.reference.constant
; Rails associations name the model they load: `has_many :accounts`, `class_name: "ImpersonationSessionLog"`
(call
  method: (identifier) @_verb (#any-of? @_verb "has_many" "has_one" "belongs_to" "has_and_belongs_to_many")
  arguments: (argument_list . (simple_symbol) @name.reference.association))
(pair
  key: (hash_key_symbol) @_key (#any-of? @_key "class_name" "class")
  value: (string (string_content) @name.reference.class))
(identifier) @name.reference.identifier

; -- imports -----------------------------------------------------------------------------------------------------
(call
  method: (identifier) @_verb (#any-of? @_verb "require" "load")
  arguments: (argument_list . (string (string_content) @import)))
(call
  method: (identifier) @_verb (#eq? @_verb "require_relative")
  arguments: (argument_list . (string (string_content) @import.relative)))
(call
  method: (identifier) @_verb (#eq? @_verb "autoload")
  arguments: (argument_list (simple_symbol) (string (string_content) @import)))
