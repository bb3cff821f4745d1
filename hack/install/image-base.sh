# The base image tar the container images are built on (hack/image-base/build.sh: Debian packages plus a
# jlink runtime, assembled offline). Exporting its path turns on the image build in hack/test.sh.
install_image_base() {
  local tar
  tar="$("$STACKBENCH_ROOT/hack/image-base/build.sh")" || die "building the base image failed; see the output above"
  provide STACKBENCH_IMAGE_BASE "$tar"
}
