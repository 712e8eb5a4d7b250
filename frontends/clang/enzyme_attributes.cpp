// pyenzyme's clang plugin: Enzyme's source attributes, as upstream Enzyme's plugin spells them.
//
// pyenzyme builds this file against the clang-22 headers the first time a C or C++ source is
// compiled (enzyme/toolchain/clang_plugin.py) and loads it with -fplugin into every clang it runs.
// Each attribute lowers to an `annotate` attribute, which clang writes into @llvm.global.annotations
// for the definitions of a translation unit; pyenzyme reads those back (enzyme/ad/annotations.py):
//
//   enzyme_inactive           function -> "enzyme_inactivefn"; global variable -> "enzyme_inactive"
//   enzyme_inactive_noblock   function -> "enzyme_inactivenoblockfn"; global variable -> "enzyme_inactive"
//   enzyme_function_like("f") function -> "enzyme_function_like=f"
//   enzyme_nofree             function -> "enzyme_nofree"
//   enzyme_shadow(s, ...)     global variable -> "enzyme_shadow" with the arguments &s, ...
//
// Spellings: __attribute__((enzyme_inactive)), [[enzyme_inactive]] and [[enzyme::inactive]] in C23
// and C++11.  Functions carrying one of them are made noinline, so that an optimizing frontend keeps
// the calls that the annotation is about.  Clang emits no annotation for a declaration without a
// definition in the translation unit (clang 22 does for functions, not for variables): for a global
// variable defined elsewhere that the unit uses, the plugin adds a `static` registration variable
// holding its address, named __pyenzyme_autoreg_<n>_<name>, which carries the same annotations.
#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "clang/Sema/ParsedAttr.h"
#include "clang/Sema/Sema.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <memory>
#include <string>
#include <vector>

using namespace clang;

namespace {

constexpr const char AutoregPrefix[] = "__pyenzyme_autoreg_";

// Declarations that carry an annotation of ours, in the order seen (the consumer registers the
// undefined ones at the end of the translation unit).
std::vector<Decl *> &annotatedDecls() {
  static std::vector<Decl *> decls;
  return decls;
}

bool isGlobalVariable(const Decl *D) {
  const auto *VD = dyn_cast<VarDecl>(D);
  return VD && VD->hasGlobalStorage() && !isa<ParmVarDecl>(VD);
}

void error(Sema &S, SourceLocation Loc, StringRef Message) {
  unsigned ID = S.getDiagnostics().getCustomDiagID(DiagnosticsEngine::Error, "%0");
  S.Diag(Loc, ID) << Message;
}

void annotate(Sema &S, Decl *D, const ParsedAttr &A, StringRef Annotation, ArrayRef<Expr *> Args = {}) {
  // Clang emits an annotation's arguments from their folded values, as for `annotate("...", args)`.
  SmallVector<Expr *, 4> Folded;
  for (Expr *E : Args) {
    Expr::EvalResult Result;
    if (!E->EvaluateAsConstantExpr(Result, S.Context)) {
      error(S, E->getExprLoc(), "enzyme attribute argument is not a constant address");
      return;
    }
    Folded.push_back(ConstantExpr::Create(S.Context, E, Result.Val));
  }
  D->addAttr(AnnotateAttr::Create(S.Context, Annotation, Folded.data(), Folded.size(), A.getRange()));
  if (auto *FD = dyn_cast<FunctionDecl>(D))
    if (!FD->hasAttr<NoInlineAttr>())
      FD->addAttr(NoInlineAttr::CreateImplicit(S.Context, A.getRange()));
  annotatedDecls().push_back(D);
}

// The spellings of attribute `enzyme_<name>`: GNU, C23 and C++11, plain and in the enzyme:: scope.
#define ENZYME_SPELLINGS(name)                                                                    \
  static constexpr Spelling S[] = {                                                               \
      {ParsedAttr::AS_GNU, "enzyme_" name},    {ParsedAttr::AS_C23, "enzyme_" name},              \
      {ParsedAttr::AS_C23, "enzyme::" name},   {ParsedAttr::AS_CXX11, "enzyme_" name},            \
      {ParsedAttr::AS_CXX11, "enzyme::" name}};                                                   \
  Spellings = S

// With arguments: clang parses the arguments of a scoped [[enzyme::name(...)]] only if some plugin
// spells the bare [[name]], so these spellings are registered too; handlers refuse them
// (scopedOrPrefixed) so that a bare [[name(...)]] stays someone else's attribute.
#define ENZYME_SPELLINGS_WITH_ARGUMENTS(name)                                                     \
  static constexpr Spelling S[] = {                                                               \
      {ParsedAttr::AS_GNU, "enzyme_" name},  {ParsedAttr::AS_C23, "enzyme_" name},                \
      {ParsedAttr::AS_C23, "enzyme::" name}, {ParsedAttr::AS_CXX11, "enzyme_" name},              \
      {ParsedAttr::AS_CXX11, "enzyme::" name}, {ParsedAttr::AS_C23, name},                        \
      {ParsedAttr::AS_CXX11, name}};                                                              \
  Spellings = S

// Is this spelling ours: enzyme::name or enzyme_name (not a bare [[name]])?
bool scopedOrPrefixed(const ParsedAttr &A) {
  if (const IdentifierInfo *Scope = A.getScopeName())
    return Scope->getName() == "enzyme";
  return A.getAttrName()->getName().starts_with("enzyme_");
}

// A bare [[name(...)]]: what clang says of attributes it does not know.
ParsedAttrInfo::AttrHandling ignoreForeign(Sema &S, const ParsedAttr &A) {
  unsigned ID = S.getDiagnostics().getCustomDiagID(DiagnosticsEngine::Warning, "unknown attribute '%0' ignored");
  S.Diag(A.getLoc(), ID) << A.getAttrName()->getName();
  return ParsedAttrInfo::AttributeApplied;
}

// enzyme_inactive / enzyme_inactive_noblock: on a function or a global variable, no arguments.
struct InactiveInfo : public ParsedAttrInfo {
  StringRef FunctionAnnotation;
  explicit InactiveInfo(StringRef FunctionAnnotation) : FunctionAnnotation(FunctionAnnotation) {}

  bool diagAppertainsToDecl(Sema &S, const ParsedAttr &A, const Decl *D) const override {
    if (isa<FunctionDecl>(D) || isGlobalVariable(D))
      return true;
    error(S, A.getLoc(), (Twine("'") + A.getAttrName()->getName() +
                          "' applies to functions and global variables only").str());
    return false;
  }

  AttrHandling handleDeclAttribute(Sema &S, Decl *D, const ParsedAttr &A) const override {
    annotate(S, D, A, isa<FunctionDecl>(D) ? FunctionAnnotation : StringRef("enzyme_inactive"));
    return AttributeApplied;
  }
};

struct Inactive : public InactiveInfo {
  Inactive() : InactiveInfo("enzyme_inactivefn") { ENZYME_SPELLINGS("inactive"); }
};

struct InactiveNoblock : public InactiveInfo {
  InactiveNoblock() : InactiveInfo("enzyme_inactivenoblockfn") { ENZYME_SPELLINGS("inactive_noblock"); }
};

bool functionsOnly(Sema &S, const ParsedAttr &A, const Decl *D) {
  if (isa<FunctionDecl>(D))
    return true;
  error(S, A.getLoc(), (Twine("'") + A.getAttrName()->getName() + "' applies to functions only").str());
  return false;
}

// enzyme_function_like("name"): differentiate calls as calls of the named function.
struct FunctionLike : public ParsedAttrInfo {
  FunctionLike() {
    NumArgs = 1;
    ENZYME_SPELLINGS_WITH_ARGUMENTS("function_like");
  }
  bool diagAppertainsToDecl(Sema &S, const ParsedAttr &A, const Decl *D) const override {
    return !scopedOrPrefixed(A) || functionsOnly(S, A, D);
  }
  AttrHandling handleDeclAttribute(Sema &S, Decl *D, const ParsedAttr &A) const override {
    if (!scopedOrPrefixed(A))
      return ignoreForeign(S, A);
    Expr *Arg = A.getNumArgs() == 1 && A.isArgExpr(0) ? A.getArgAsExpr(0) : nullptr;
    auto *Name = Arg ? dyn_cast<StringLiteral>(Arg->IgnoreParenCasts()) : nullptr;
    if (!Name || Name->getString().empty()) {
      error(S, A.getLoc(), "'enzyme_function_like' takes the name of a function as a string literal, "
                           "e.g. enzyme_function_like(\"exp\")");
      return AttributeNotApplied;
    }
    annotate(S, D, A, (Twine("enzyme_function_like=") + Name->getString()).str());
    return AttributeApplied;
  }
};

// enzyme_nofree: the function frees no memory.
struct NoFree : public ParsedAttrInfo {
  NoFree() { ENZYME_SPELLINGS("nofree"); }
  bool diagAppertainsToDecl(Sema &S, const ParsedAttr &A, const Decl *D) const override {
    return functionsOnly(S, A, D);
  }
  AttrHandling handleDeclAttribute(Sema &S, Decl *D, const ParsedAttr &A) const override {
    annotate(S, D, A, "enzyme_nofree");
    return AttributeApplied;
  }
};

// enzyme_shadow(s) on a global variable: s is its shadow (one per direction in batch mode).
struct Shadow : public ParsedAttrInfo {
  Shadow() {
    NumArgs = 1;
    OptArgs = 15;
    ENZYME_SPELLINGS_WITH_ARGUMENTS("shadow");
  }
  bool diagAppertainsToDecl(Sema &S, const ParsedAttr &A, const Decl *D) const override {
    if (isGlobalVariable(D) || !scopedOrPrefixed(A))
      return true;
    error(S, A.getLoc(), "'enzyme_shadow' applies to global variables only");
    return false;
  }
  AttrHandling handleDeclAttribute(Sema &S, Decl *D, const ParsedAttr &A) const override {
    if (!scopedOrPrefixed(A))
      return ignoreForeign(S, A);
    auto *VD = cast<VarDecl>(D);
    SmallVector<Expr *, 4> Addresses;
    for (unsigned I = 0; I < A.getNumArgs(); ++I) {
      VarDecl *Target = nullptr;
      SourceLocation Loc = A.getLoc();
      if (A.isArgIdent(I)) {  // a plain name: clang hands it over unresolved
        IdentifierLoc *Id = A.getArgAsIdent(I);
        Loc = Id->getLoc();
        Target = dyn_cast_or_null<VarDecl>(
            S.LookupSingleName(S.getCurScope(), Id->getIdentifierInfo(), Loc, Sema::LookupOrdinaryName));
      } else if (Expr *E = A.getArgAsExpr(I)) {
        Loc = E->getExprLoc();
        if (auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
          Target = dyn_cast<VarDecl>(Ref->getDecl());
      }
      if (!Target || !isGlobalVariable(Target) || Target->getType()->isDependentType()) {
        error(S, Loc, "'enzyme_shadow' takes global variables declared before it (the shadows), "
                      "e.g. enzyme_shadow(d_state)");
        return AttributeNotApplied;
      }
      if (Target == VD || !S.Context.hasSameType(Target->getType(), VD->getType())) {
        error(S, Loc, (Twine("the shadow '") + Target->getName() +
                       "' must be another global variable of the same type as '" + VD->getName() + "'").str());
        return AttributeNotApplied;
      }
      QualType T = Target->getType();
      auto *Ref = DeclRefExpr::Create(S.Context, NestedNameSpecifierLoc(), SourceLocation(), Target, false, Loc, T,
                                      VK_LValue);
      Target->markUsed(S.Context);
      Addresses.push_back(UnaryOperator::Create(S.Context, Ref, UO_AddrOf, S.Context.getPointerType(T), VK_PRValue,
                                                OK_Ordinary, Loc, false, FPOptionsOverride()));
    }
    annotate(S, D, A, "enzyme_shadow", Addresses);
    return AttributeApplied;
  }
};

bool isOurs(const AnnotateAttr *A) {
  StringRef S = A->getAnnotation();
  return S.starts_with("enzyme_inactive") || S.starts_with("enzyme_function_like=") || S == "enzyme_nofree" ||
         S == "enzyme_shadow";
}

bool definedHere(const Decl *D) {
  if (const auto *FD = dyn_cast<FunctionDecl>(D))
    return FD->isDefined();
  if (const auto *VD = dyn_cast<VarDecl>(D))
    return VD->hasDefinition() != VarDecl::DeclarationOnly;  // tentative definitions count
  return true;
}

// Writes the registration variables of annotated declarations that the translation unit uses but
// does not define, and refuses always_inline on annotated functions (the call must stay a call).
class Consumer : public ASTConsumer {
  CompilerInstance &CI;
  unsigned Count = 0;

public:
  explicit Consumer(CompilerInstance &CI) : CI(CI) {}

  void HandleTranslationUnit(ASTContext &Ctx) override {
    if (!CI.hasSema())
      return;
    Sema &S = CI.getSema();
    llvm::SmallPtrSet<const Decl *, 16> Seen;
    for (Decl *D : annotatedDecls()) {
      Decl *Canonical = D->getCanonicalDecl();
      if (!Seen.insert(Canonical).second)
        continue;
      if (auto *FD = dyn_cast<FunctionDecl>(D)) {
        const FunctionDecl *Def = FD->getDefinition();
        if ((Def ? Def : FD)->hasAttr<AlwaysInlineAttr>()) {
          error(S, FD->getLocation(), (Twine("'") + FD->getName() +
                                       "' carries an enzyme attribute and always_inline: its calls must stay "
                                       "calls for the attribute to apply; remove always_inline").str());
          continue;
        }
      }
      registerIfUndefined(S, Ctx, D);
    }
    annotatedDecls().clear();
  }

private:
  void registerIfUndefined(Sema &S, ASTContext &Ctx, Decl *D) {
    // Clang itself annotates the declarations of functions it emits.
    auto *VD = dyn_cast<VarDecl>(D);
    if (!VD || definedHere(D) || !D->isReferenced() || D->isTemplated())
      return;
    SmallVector<const AnnotateAttr *, 4> Ours;
    for (const auto *A : D->specific_attrs<AnnotateAttr>())
      if (isOurs(A))
        Ours.push_back(A);
    if (Ours.empty())
      return;
    SourceLocation Loc = D->getLocation();
    QualType T = VD->getType();
    QualType PT = Ctx.getPointerType(T);
    auto *Ref = DeclRefExpr::Create(Ctx, NestedNameSpecifierLoc(), SourceLocation(), VD, false, Loc, T,
                                    VK_LValue);
    Expr *Init = UnaryOperator::Create(Ctx, Ref, UO_AddrOf, PT, VK_PRValue, OK_Ordinary, Loc, false,
                                       FPOptionsOverride());
    std::string Name = (Twine(AutoregPrefix) + Twine(Count++) + "_" + VD->getName()).str();
    TranslationUnitDecl *TU = Ctx.getTranslationUnitDecl();
    auto *R = VarDecl::Create(Ctx, TU, Loc, Loc, &Ctx.Idents.get(Name), PT, Ctx.getTrivialTypeSourceInfo(PT),
                              SC_Static);
    R->setInit(Init);
    R->addAttr(UsedAttr::CreateImplicit(Ctx));
    for (const AnnotateAttr *A : Ours)
      R->addAttr(AnnotateAttr::CreateImplicit(Ctx, A->getAnnotation(), A->args_begin(), A->args_size(),
                                              A->getRange()));
    TU->addDecl(R);
    S.getASTConsumer().HandleTopLevelDecl(DeclGroupRef(R));
  }
};

class Action : public PluginASTAction {
protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI, StringRef) override {
    return std::make_unique<Consumer>(CI);
  }
  bool ParseArgs(const CompilerInstance &, const std::vector<std::string> &) override { return true; }
  ActionType getActionType() override { return AddBeforeMainAction; }
};

} // namespace

static ParsedAttrInfoRegistry::Add<Inactive> RegisterInactive("enzyme_inactive", "");
static ParsedAttrInfoRegistry::Add<InactiveNoblock> RegisterNoblock("enzyme_inactive_noblock", "");
static ParsedAttrInfoRegistry::Add<FunctionLike> RegisterFunctionLike("enzyme_function_like", "");
static ParsedAttrInfoRegistry::Add<NoFree> RegisterNoFree("enzyme_nofree", "");
static ParsedAttrInfoRegistry::Add<Shadow> RegisterShadow("enzyme_shadow", "");
static FrontendPluginRegistry::Add<Action> RegisterAction("pyenzyme-attributes",
                                                          "Enzyme's source attributes for pyenzyme");
