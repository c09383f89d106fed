// dlib's own example network (dnn_face_recognition_ex.cpp), declared as the model file expects.
#include "CDlibShim.h"
#include <dlib/dnn.h>
#include <dlib/image_processing.h>
#include <cstring>
#include <mutex>
#include <string>

namespace {
template <template <int, template <typename> class, int, typename> class block, int N, template <typename> class BN, typename SUBNET>
using residual = dlib::add_prev1<block<N, BN, 1, dlib::tag1<SUBNET>>>;
template <template <int, template <typename> class, int, typename> class block, int N, template <typename> class BN, typename SUBNET>
using residual_down = dlib::add_prev2<dlib::avg_pool<2, 2, 2, 2, dlib::skip1<dlib::tag2<block<N, BN, 2, dlib::tag1<SUBNET>>>>>>;
template <int N, template <typename> class BN, int stride, typename SUBNET>
using block = BN<dlib::con<N, 3, 3, 1, 1, dlib::relu<BN<dlib::con<N, 3, 3, stride, stride, SUBNET>>>>>;
template <int N, typename SUBNET> using ares = dlib::relu<residual<block, N, dlib::affine, SUBNET>>;
template <int N, typename SUBNET> using ares_down = dlib::relu<residual_down<block, N, dlib::affine, SUBNET>>;
template <typename SUBNET> using alevel0 = ares_down<256, SUBNET>;
template <typename SUBNET> using alevel1 = ares<256, ares<256, ares_down<256, SUBNET>>>;
template <typename SUBNET> using alevel2 = ares<128, ares<128, ares_down<128, SUBNET>>>;
template <typename SUBNET> using alevel3 = ares<64, ares<64, ares<64, ares_down<64, SUBNET>>>>;
template <typename SUBNET> using alevel4 = ares<32, ares<32, ares<32, SUBNET>>>;
using anet_type = dlib::loss_metric<dlib::fc_no_bias<128, dlib::avg_pool_everything<
    alevel0<alevel1<alevel2<alevel3<alevel4<
    dlib::max_pool<3, 3, 2, 2, dlib::relu<dlib::affine<dlib::con<32, 7, 7, 2, 2,
    dlib::input_rgb_image_sized<150>>>>>>>>>>>>>;

void say(char *err, size_t len, const std::string &s) {
    if (err && len) { std::strncpy(err, s.c_str(), len - 1); err[len - 1] = 0; }
}
}  // namespace

struct pcd_model {
    dlib::shape_predictor sp;
    anet_type net;
    std::mutex lock;
};

extern "C" pcd_model *pcd_load(const char *shape_predictor, const char *network, char *err, size_t errlen) {
    try {
        auto *m = new pcd_model();
        dlib::deserialize(shape_predictor) >> m->sp;
        dlib::deserialize(network) >> m->net;
        return m;
    } catch (const std::exception &e) {
        say(err, errlen, e.what());
        return nullptr;
    }
}

extern "C" int pcd_embed(pcd_model *m, const unsigned char *rgb, int width, int height,
                         const float *boxes, int n, float *out, float *marks, char *err, size_t errlen) {
    try {
        dlib::matrix<dlib::rgb_pixel> img(height, width);
        for (int y = 0; y < height; y++)
            for (int x = 0; x < width; x++) {
                const unsigned char *p = rgb + 3 * ((size_t)y * width + x);
                img(y, x) = dlib::rgb_pixel(p[0], p[1], p[2]);
            }
        std::vector<dlib::matrix<dlib::rgb_pixel>> chips;
        for (int i = 0; i < n; i++) {
            const float *b = boxes + 4 * i;
            dlib::rectangle r((long)b[0], (long)b[1], (long)(b[0] + b[2]), (long)(b[1] + b[3]));
            auto shape = m->sp(img, r);
            if (marks)
                for (unsigned k = 0; k < 5 && k < shape.num_parts(); k++) {
                    marks[10 * i + 2 * k] = shape.part(k).x();
                    marks[10 * i + 2 * k + 1] = shape.part(k).y();
                }
            dlib::matrix<dlib::rgb_pixel> chip;
            dlib::extract_image_chip(img, dlib::get_face_chip_details(shape, 150, 0.25), chip);
            chips.push_back(std::move(chip));
        }
        std::vector<dlib::matrix<float, 0, 1>> d;
        {
            std::lock_guard<std::mutex> g(m->lock);
            d = m->net(chips);
        }
        for (int i = 0; i < n; i++)
            for (int k = 0; k < 128; k++) out[128 * i + k] = d[i](k);
        return 0;
    } catch (const std::exception &e) {
        say(err, errlen, e.what());
        return -1;
    }
}

extern "C" void pcd_free(pcd_model *m) { delete m; }
